from django.contrib.auth import views as auth_views
from django.urls import path

from . import privacy_views, profile_views, views

app_name = "accounts"

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("confirm/resend/", views.resend_confirmation, name="resend_confirmation"),
    path("confirm/<str:token>/", views.confirm_email, name="confirm_email"),
    path("login-link/", views.login_link_request, name="login_link"),
    path("login-link/sent/", views.login_link_sent, name="login_link_sent"),
    path("login-link/<str:token>/", views.login_link_use, name="login_link_use"),
    path("invitation/<str:token>/", views.invitation, name="invitation"),
    path("profile/", profile_views.profile, name="profile"),
    path("theme/", profile_views.theme, name="theme"),
    path("block/<int:user_id>/", profile_views.block, name="block"),
    path("profile/my-data.json", privacy_views.own_data, name="own_data"),
    path("profile/delete/", privacy_views.delete_request, name="delete_request"),
    path("delete/<str:token>/", privacy_views.delete_confirm, name="delete_confirm"),
    path("profile/email/", privacy_views.change_email_request, name="change_email"),
    path("email/<str:token>/", privacy_views.change_email_confirm, name="change_email_confirm"),
    path("email/undo/<str:token>/", privacy_views.undo_email_change, name="undo_email_change"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
