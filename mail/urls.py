from django.urls import path

from . import views

app_name = "mail"

urlpatterns = [
    path("move/<str:token>/", views.move, name="move"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("unsubscribe/events/<str:token>/", views.unsubscribe_events, name="unsubscribe_events"),
]
