from django.urls import path

from .views import calculator

app_name = "games"

urlpatterns = [
    path("calculator/", calculator.calculator, name="calculator"),
]
