"""URLs of the friends page and the social forms, mounted at /friends/."""

from django.urls import path, re_path

from social import views

app_name = "social"

urlpatterns = [
    path("", views.friends, name="friends"),
    path("request/", views.friend_request_create, name="request"),
    re_path(
        r"^requests/(?P<user_id>[0-9]{1,9})/(?P<answer>accept|decline|cancel)/$",
        views.friend_request_answer,
        name="request-answer",
    ),
    path("<int:user_id>/remove/", views.friendship_delete, name="unfriend"),
    path("blocks/<int:user_id>/", views.block_create, name="block"),
    path("blocks/<int:user_id>/lift/", views.block_delete, name="unblock"),
    path("invite/", views.invitation_create, name="invite"),
    re_path(
        r"^invitations/(?P<invitation_id>[0-9]{1,9})/(?P<answer>accept|decline)/$",
        views.invitation_answer,
        name="invitation-answer",
    ),
]
