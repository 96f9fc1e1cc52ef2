"""The chat's admin: a report with its conversation, escaped, and the
actions on its author."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat import services
from chat.errors import Muted
from chat.models import ChatMute, Report
from chat.selectors import LOBBY
from tests.factories import StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db

PAYLOADS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>"]


@pytest.fixture
def report(settings):
    settings.PULKA_CHAT_MESSAGES = 100
    rude, victim = UserFactory(), UserFactory()
    now = timezone.now()
    said = [
        services.message_post(author_id=author.pk, room=LOBBY, text=text, now=now)
        for author, text in [
            (victim, "hello all"),
            (rude, PAYLOADS[0]),
            (rude, PAYLOADS[1]),
            (victim, "please stop"),
        ]
    ]
    return services.report_create(
        reporter_id=victim.pk, message_id=said[1].pk, reason="<b>rude</b>", now=now
    )


def operator() -> Client:
    client = Client()
    client.force_login(StaffUserFactory())
    return client


def test_a_report_is_listed_and_shows_the_conversation_escaped(report):
    client = operator()
    listing = client.get(reverse("admin:chat_report_changelist"))
    assert listing.status_code == 200
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in listing.text
    page = client.get(reverse("admin:chat_report_change", args=[report.pk]))
    assert page.status_code == 200
    for payload in PAYLOADS:
        assert payload not in page.text
    assert "&lt;img src=x onerror=alert(1)&gt;" in page.text
    assert "hello all" in page.text and "please stop" in page.text
    assert "&lt;b&gt;rude&lt;/b&gt;" in page.text
    assert 'class="reported"' in page.text


def test_the_mute_action_mutes_the_author_and_handles_the_report(report):
    client = operator()
    response = client.post(
        reverse("admin:chat_report_changelist"),
        {"action": "mute_hour", "_selected_action": [report.pk]},
    )
    assert response.status_code == 302
    mute = ChatMute.objects.get()
    assert mute.user_id == report.message.author_id
    assert 59 <= (mute.until - timezone.now()).total_seconds() / 60 <= 60
    report.refresh_from_db()
    assert report.handled_at is not None and report.handled_by is not None
    # The muted author's next message is refused.
    with pytest.raises(Muted):
        services.message_post(
            author_id=mute.user_id, room=LOBBY, text="hi", now=timezone.now()
        )


def test_the_ban_action_bans_the_author(report):
    client = operator()
    client.post(
        reverse("admin:chat_report_changelist"),
        {"action": "ban_authors", "_selected_action": [report.pk]},
    )
    report.message.author.refresh_from_db()
    assert not report.message.author.is_active
    assert Report.objects.get().handled_at is not None


@pytest.mark.parametrize(
    "name", ["chat_message", "chat_chatmute", "chat_personalmute", "chat_report"]
)
def test_every_chat_admin_page_opens(report, name):
    assert operator().get(reverse(f"admin:{name}_changelist")).status_code == 200
