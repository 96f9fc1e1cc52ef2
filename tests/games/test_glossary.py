"""The glossary (games/glossary.py): every term explained in the four
languages, every term a notice of the table can name among them, and the
word found in the notice in each language, so that the table can make it
tappable. The notices are made by the table's own script (run here in
Node), in each language's catalog."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation.trans_real import DjangoTranslation

from games.glossary import BY_SLUG, TERMS, terms_for
from joker.rules import PROFILES

LANGUAGES = ["en", "ka", "ru", "tr"]
GEORGIAN = re.compile(r"[\u10d0-\u10ff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
LATIN = re.compile(r"[A-Za-z]")
ROOT = Path(settings.BASE_DIR)

# One event of each kind a notice is made for, as the socket sends them;
# "you" is the reader's seat.
EVENTS = [
    {"type": "deal_over", "deal": 0, "result": {"scores": [100, -200, 50, 0]}},
    {"type": "pulka_over", "pulka": 1},
    {"type": "resign", "seat": 1},
    {"type": "rejoin", "seat": 1},
    {"type": "aborted"},
    {"type": "card", "seat": 0, "card": "AS", "timeout": True},
    {"type": "card", "seat": 1, "card": "X1", "timeout": True},
    {"type": "bid", "seat": 0, "bid": 2, "timeout": True},
    {"type": "bid", "seat": 1, "bid": 0, "timeout": True},
    {"type": "trump", "seat": 0, "timeout": True},
    {"type": "trump", "seat": 1, "timeout": True},
]

# Renders each event's notice with the table's script in one language's
# catalog, with the terms it names and where the table finds each one's
# word in it.
NOTICES = """
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const given = JSON.parse(chunks.join(""));
const { messagesUrl, termsUrl, catalog, events, glossary } = given;
globalThis.gettext = (text) => catalog[text] || text;
globalThis.ngettext = (one, many, n) => (n === 1 ? one : many);
const { NOTICE_TERMS, eventText, eventTerms } = await import(messagesUrl);
const { findTerm } = await import(termsUrl);
const names = (seat) => ["Nino", "Gio", "Bot 3", "Bot 4"][seat];
const notices = events.map((event) => {
  const text = eventText(event, names, 0);
  const terms = eventTerms(event);
  const found = (terms || []).map((slug) =>
    glossary[slug] ? findTerm(text, glossary[slug]) !== null : false);
  return { event, text, terms, found };
});
console.log(JSON.stringify({ kinds: Object.keys(NOTICE_TERMS), notices }));
"""


def js_catalog(lang: str) -> dict:
    if lang == "en":
        return {}
    catalog = DjangoTranslation(lang, domain="djangojs")._catalog
    return {key: value for key, value in catalog.items() if isinstance(key, str)}


def notices(lang: str) -> dict:
    with translation.override(lang):
        glossary = {term.slug: term.as_json() for term in TERMS}
    given = {
        "messagesUrl": (ROOT / "static/js/game/messages.js").as_uri(),
        "termsUrl": (ROOT / "static/js/views/terms.js").as_uri(),
        "catalog": js_catalog(lang),
        "events": EVENTS,
        "glossary": glossary,
    }
    result = subprocess.run(
        ["node", "--input-type=module", "-e", NOTICES],
        input=json.dumps(given),
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


FIELDS = (
    ("name", "glossary"),
    ("explanation", "glossary"),
    ("forms", "glossary forms"),
)


def catalog_has(lang: str, context: str, msgid: str) -> bool:
    catalog = DjangoTranslation(lang)._catalog
    return f"{context}\x04{msgid}" in catalog


@pytest.mark.parametrize("lang", ["ka", "ru", "tr"])
def test_every_term_is_translated(lang):
    missing = []
    for term in TERMS:
        for field, context in FIELDS:
            # English has no catalog: a term's English is its message id.
            with translation.override("en"):
                msgid = str(getattr(term, field))
            if not catalog_has(lang, context, msgid):
                missing.append((term.slug, field))
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_term_is_explained_in_the_language_s_own_script(lang):
    script = {"ka": GEORGIAN, "ru": CYRILLIC}.get(lang, LATIN)
    with translation.override(lang):
        for term in TERMS:
            entry = term.as_json()
            assert script.search(entry["name"]), (term.slug, entry["name"])
            assert script.search(entry["text"]), (term.slug, entry["text"])
            assert entry["forms"], term.slug
            if lang != "en":
                with translation.override("en"):
                    english = str(term.explanation)
                assert entry["text"] != english, term.slug


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_term_a_notice_names_is_in_the_glossary_and_found_in_it(lang):
    made = notices(lang)
    # Every kind of notice the table names terms for is tried here.
    tried = {
        ("timeout_" if event.get("timeout") else "") + event["type"] for event in EVENTS
    }
    assert set(made["kinds"]) <= tried, set(made["kinds"]) - tried
    named = set()
    for notice in made["notices"]:
        if not notice["text"]:
            continue
        # A notice says which of the game's terms it names (perhaps none).
        assert isinstance(notice["terms"], list), notice
        for slug, found in zip(notice["terms"], notice["found"], strict=True):
            assert slug in BY_SLUG, (slug, notice["text"])
            assert found, (lang, slug, notice["text"])
            named.add(slug)
    # The notices of a deal's end, a pulka's end and a timed-out bid and
    # trump name these.
    assert {"deal", "pulka", "bid", "trump"} <= named


@pytest.mark.django_db
@pytest.mark.parametrize("profile", PROFILES)
def test_each_rules_page_has_an_entry_for_each_term_its_tables_show(client, profile):
    page = client.get(reverse("games:rules", args=[profile])).content.decode()
    shown = set(re.findall(r'<dt id="(term-[a-z-]+)">', page))
    assert shown == {term.anchor for term in terms_for(profile)}
    # The words every table shows, and each game's own.
    assert {"term-deal", "term-trump", "term-trick", "term-joker"} <= shown
    if profile == "japanese":
        assert {"term-declarer", "term-columns"} <= shown
    else:
        assert {"term-pulka", "term-hisht", "term-shetenva", "term-tsaglejva"} <= shown
