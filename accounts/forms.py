from django import forms
from django.contrib.auth.forms import BaseUserCreationForm

from .models import User


class SignupForm(BaseUserCreationForm):
    class Meta:
        model = User
        fields = ["email", "display_name"]

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this email address already exists.")
        return email
