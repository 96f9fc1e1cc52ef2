"""The server-rendered pages and the admin."""

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


def test_home_page_renders(client):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    assert "home.html" in [t.name for t in response.templates]
    assert "base.html" in [t.name for t in response.templates]
    content = response.content.decode()
    assert "Japanese Joker" in content
    assert "css/pulka.css" in content


def test_home_page_follows_the_language_cookie(client):
    client.cookies["django_language"] = "ka"

    response = client.get(reverse("home"))

    assert response.headers["Content-Language"] == "ka"
    assert '<html lang="ka">' in response.content.decode()


def test_stylesheet_is_found():
    assert finders.find("css/pulka.css")


def test_admin_login_page_renders(client):
    response = client.get("/admin/login/")

    assert response.status_code == 200
    assert b"id_username" in response.content


def test_admin_index_redirects_anonymous_to_login(client):
    response = client.get("/admin/")

    assert response.status_code == 302
    assert response.headers["Location"].startswith("/admin/login/")


def test_admin_index_for_staff(client, staff_user):
    client.force_login(staff_user)

    response = client.get("/admin/")

    assert response.status_code == 200
    assert b"Periodic tasks" in response.content


def test_the_favicon_is_found_from_every_page(client):
    content = client.get(reverse("home")).content.decode()
    assert 'rel="icon"' in content and "favicon.svg" in content

    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response.headers["Location"].endswith("favicon.ico")
    assert finders.find("favicon.ico") and finders.find("favicon.svg")
    with open(finders.find("favicon.ico"), "rb") as icon:
        assert icon.read(4) == b"\x00\x00\x01\x00"  # an ICO file


def test_the_home_page_buttons_are_buttons_side_by_side(client):
    content = client.get(reverse("home")).content.decode()
    start = content.index('class="actions home-actions"')
    actions = content[start : content.index("</p>", start)]
    assert actions.count('class="button') == 2


def test_the_profile_saved_message_is_in_the_new_language(client, django_user_model):
    user = django_user_model.objects.create_user(username="nino", password="x-1-y-2")
    client.force_login(user)

    response = client.post(
        reverse("accounts:profile"),
        {"display_name": "Nino", "language": "ka"},
        follow=True,
    )

    messages = [str(message) for message in response.context["messages"]]
    with translation.override("ka"):
        saved = translation.gettext("Your profile is saved.")
    assert saved != "Your profile is saved."
    assert messages == [saved]


def test_no_template_comment_reaches_the_page(client):
    # Django's {# #} comments end on their own line; a longer one shows.
    for url in [reverse("home"), reverse("games:lobby")]:
        assert "{#" not in client.get(url).content.decode()
