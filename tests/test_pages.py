"""The server-rendered pages and the admin."""

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

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
