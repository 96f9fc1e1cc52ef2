"""The Georgian, Russian and Turkish translations: complete, compiled, in use."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation.trans_real import DjangoTranslation

from accounts import services

LOCALE_DIR = Path(settings.BASE_DIR) / "locale"
LANGUAGES = ["ka", "ru", "tr"]
DOMAINS = ["django", "djangojs"]
NPLURALS = {"ka": 2, "ru": 3, "tr": 2}
PO_FILES = [
    (lang, domain, LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po")
    for lang in LANGUAGES
    for domain in DOMAINS
]
PO_IDS = [f"{lang}-{domain}" for lang, domain, _ in PO_FILES]


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$')


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], m[1]), text.strip()[1:-1])


def parse_po(path: Path) -> list[Entry]:
    """The entries of a .po file (a small parser: enough for what xgettext writes)."""
    entries: list[Entry] = []
    entry = Entry()
    target: tuple[str, int | None] | None = None

    def finish():
        nonlocal entry, target
        if target is not None:
            entries.append(entry)
        entry, target = Entry(), None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            entry.obsolete = True
            line = line[2:].strip()
            if not line or line.startswith("#"):
                continue
        elif line.startswith("#,"):
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        elif line.startswith("#"):
            continue
        if line.startswith('"'):
            assert target is not None, f"{path}: text outside an entry: {raw!r}"
            _append(entry, target, _unquote(line))
            continue
        match = _KEYWORD.match(line)
        assert match, f"{path}: cannot read {raw!r}"
        keyword, index, text = match[1], match[2], _unquote(match[3])
        if keyword == "msgid" and target is not None and target[0] != "msgctxt":
            finish()
        target = (keyword.split("[")[0], int(index) if index else None)
        _append(entry, target, text, start=True)
    finish()
    return entries


def _append(entry: Entry, target: tuple[str, int | None], text: str, start=False):
    keyword, index = target
    if keyword == "msgstr":
        key = index or 0
        entry.msgstr[key] = ("" if start else entry.msgstr.get(key, "")) + text
    else:
        value = "" if start else (getattr(entry, keyword) or "")
        setattr(entry, keyword, value + text)


def live_entries(path: Path) -> list[Entry]:
    return [e for e in parse_po(path) if e.msgid and not e.obsolete]


def header(path: Path) -> dict[str, str]:
    first = next(e for e in parse_po(path) if e.msgid == "")
    assert "fuzzy" not in first.flags, f"{path}: the header is marked fuzzy"
    lines = (line.split(":", 1) for line in first.msgstr[0].splitlines() if line)
    return {key.strip(): value.strip() for key, value in lines}


def _placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"%\([a-z_]+\)[sd]|%[sd]|\{\d*\}", text))


def _tags(text: str) -> list[str]:
    return sorted(re.findall(r"</?[a-z]+[^>]*>", text))


# -- the catalogs -----------------------------------------------------------


def test_every_language_has_both_catalogs():
    for _lang, _domain, path in PO_FILES:
        assert path.is_file(), path
        assert path.with_suffix(".mo").is_file(), path.with_suffix(".mo")
    assert {code for code, _ in settings.LANGUAGES} == {"en", *LANGUAGES}


@pytest.mark.parametrize(("lang", "domain", "path"), PO_FILES, ids=PO_IDS)
def test_headers_name_the_language_and_its_plural_forms(lang, domain, path):
    fields = header(path)

    assert fields["Language"] == lang
    assert "charset=UTF-8" in fields["Content-Type"]
    nplurals = re.search(r"nplurals=\s*(\d+)", fields["Plural-Forms"])
    assert nplurals and int(nplurals[1]) == NPLURALS[lang]


@pytest.mark.parametrize(("lang", "domain", "path"), PO_FILES, ids=PO_IDS)
def test_every_entry_is_translated_and_none_is_fuzzy(lang, domain, path):
    entries = live_entries(path)
    assert entries, f"{path} has no messages"

    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    untranslated = [e.msgid for e in entries if not all(e.msgstr.values())]
    wrong_forms = [
        e.msgid
        for e in entries
        if e.msgid_plural is not None
        and sorted(e.msgstr) != list(range(NPLURALS[lang]))
    ]
    assert not fuzzy, f"fuzzy in {path}: {fuzzy}"
    assert not untranslated, f"untranslated in {path}: {untranslated}"
    assert not wrong_forms, f"wrong number of plural forms in {path}: {wrong_forms}"


@pytest.mark.parametrize(("lang", "domain", "path"), PO_FILES, ids=PO_IDS)
def test_translations_keep_placeholders_markup_and_the_coin_name(lang, domain, path):
    for entry in live_entries(path):
        if entry.msgid_plural is None:
            assert _placeholders(entry.msgstr[0]) == _placeholders(entry.msgid), entry
            assert _tags(entry.msgstr[0]) == _tags(entry.msgid), entry
        else:
            # Every form but the last may stand for a single count and drop
            # the number (as English "The deal is verified" does).
            expected = _placeholders(entry.msgid_plural)
            *others, last = (entry.msgstr[i] for i in sorted(entry.msgstr))
            assert _placeholders(last) == expected, entry
            for form in others:
                assert set(_placeholders(form)) <= set(expected), entry
        if "Domino Coin" in entry.msgid:
            assert all("Domino Coin" in text for text in entry.msgstr.values()), entry


@pytest.mark.parametrize(("lang", "domain", "path"), PO_FILES, ids=PO_IDS)
def test_compiled_catalogs_match_their_sources(lang, domain, path):
    """The .mo files ship in the repository: each must hold what its .po says."""
    with path.with_suffix(".mo").open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)._catalog

    stale = []
    for entry in live_entries(path):
        key = (
            entry.msgid
            if entry.msgctxt is None
            else f"{entry.msgctxt}\x04{entry.msgid}"
        )
        if entry.msgid_plural is None:
            if catalog.get(key) != entry.msgstr[0]:
                stale.append(entry.msgid)
        elif any(catalog.get((key, i)) != text for i, text in entry.msgstr.items()):
            stale.append(entry.msgid)
    assert not stale, (
        f"{path.with_suffix('.mo')} is out of date; run compilemessages: {stale}"
    )


@pytest.mark.skipif(
    shutil.which("msgfmt") is None, reason="gettext tools not installed"
)
@pytest.mark.parametrize(("lang", "domain", "path"), PO_FILES, ids=PO_IDS)
def test_msgfmt_accepts_the_catalog(lang, domain, path):
    result = subprocess.run(
        ["msgfmt", "--check", "--output-file=/dev/null", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


# -- the translations in use ------------------------------------------------

EXPECTED = {
    "ka": {"Lobby": "ლობი", "Your tables": "თქვენი მაგიდები", "Log in": "შესვლა"},
    "ru": {"Lobby": "Лобби", "Your tables": "Ваши столы", "Log in": "Войти"},
    "tr": {"Lobby": "Lobi", "Your tables": "Masalarınız", "Log in": "Giriş yap"},
}
TRICKS = ("%s trick", "%s tricks")
EXPECTED_JS = {
    "ka": {"Trump": "კოზირი", "pass": "პასი", "Shetenva": "შეტენვა"},
    "ru": {"Trump": "Козырь", "pass": "пас", "Shetenva": "Шетенва"},
    "tr": {"Trump": "Koz", "pass": "pas", "Shetenva": "Şetenva"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_activating_a_language_translates_the_site(lang):
    with translation.override(lang):
        for msgid, expected in EXPECTED[lang].items():
            assert translation.gettext(msgid) == expected
    with translation.override("en"):
        for msgid in EXPECTED[lang]:
            assert translation.gettext(msgid) == msgid


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_javascript_catalog_is_translated(lang):
    catalog = DjangoTranslation(lang, domain="djangojs")
    for msgid, expected in EXPECTED_JS[lang].items():
        assert catalog.gettext(msgid) == expected


def test_russian_counts_use_three_plural_forms():
    catalog = DjangoTranslation("ru", domain="djangojs")
    # Passed as variables: makemessages must not take this file's strings.
    singular, plural = TRICKS
    forms = [catalog.ngettext(singular, plural, n) % n for n in (1, 3, 5, 21, 112)]

    assert forms == ["1 взятка", "3 взятки", "5 взяток", "21 взятка", "112 взяток"]


@pytest.mark.django_db
def test_the_javascript_catalog_view_serves_the_russian_plural_rule(client):
    client.cookies["django_language"] = "ru"

    response = client.get(reverse("games:javascript-catalog"))

    body = response.content.decode()
    assert "n%10>=2 && n%10<=4" in body
    assert r"\u041a\u043e\u0437\u044b\u0440\u044c" in body  # "Козырь"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("ka", ["ახალი მაგიდა", "თქვენი მაგიდები", "ღია მაგიდები"]),
        ("ru", ["Новый стол", "Ваши столы", "Открытые столы"]),
        ("tr", ["Yeni masa", "Masalarınız", "Açık masalar"]),
    ],
)
def test_the_lobby_speaks_the_profile_language(client, user, lang, texts):
    services.profile_update(user=user, display_name="", language=lang)
    client.force_login(user)

    response = client.get(reverse("games:lobby"), headers={"accept-language": "en"})

    assert response.status_code == 200
    content = response.content.decode()
    assert f'<html lang="{lang}">' in content
    for text in texts:
        assert text in content
    assert "New table" not in content


# -- choices built in Python ------------------------------------------------

LOBBY_CHOICES = {
    "ka": ["30 წამი", "ფსონის გარეშე", "1 მონეტა ყოველ 10 ქულაზე"],
    "ru": ["30 секунд", "Без ставки", "1 монета за 10 очков"],
    "tr": ["30 saniye", "Bahissiz", "10 puan başına 1 jeton"],
}
ENGLISH_CHOICES = ["30 seconds", "No stake", "1 coin per 10 points", "1 coin per point"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_form_choices_speak_the_profile_language(client, user, lang):
    """Labels built when the module loads must stay lazy: else they are English."""
    services.profile_update(user=user, display_name="", language=lang)
    client.force_login(user)

    content = client.get(reverse("games:lobby")).content.decode()

    for text in LOBBY_CHOICES[lang]:
        assert f">{text}</option>" in content
    for text in ENGLISH_CHOICES:
        assert f">{text}</option>" not in content


def test_russian_seconds_agree_with_their_number():
    from games.forms import seconds_label

    with translation.override("ru"):
        labels = [str(seconds_label(n)) for n in (1, 3, 21, 30, 45)]

    assert labels == ["1 секунда", "3 секунды", "21 секунда", "30 секунд", "45 секунд"]


# -- the catalogs hold every marked string -----------------------------------

SOURCES = [
    "accounts",
    "chat",
    "coins",
    "common",
    "config",
    "demo",
    "games",
    "matchmaking",
    "ratings",
    "social",
    "tournaments",
    "templates",
    "static/js",
    "locale",
    "manage.py",
]


def _ids(path: Path) -> set[tuple[str | None, str]]:
    return {(e.msgctxt, e.msgid) for e in live_entries(path)}


@pytest.mark.skipif(
    shutil.which("xgettext") is None, reason="gettext tools not installed"
)
def test_every_marked_string_is_in_the_catalogs(tmp_path):
    """``makemessages`` run on a copy of the sources finds no string the
    catalogs lack: a string marked and never extracted would show in English."""
    base = Path(settings.BASE_DIR)
    for name in SOURCES:
        source = base / name
        if source.is_dir():
            shutil.copytree(
                source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy(source, tmp_path / name)
    for domain in DOMAINS:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, "-l", "ru"],
            cwd=tmp_path,
            capture_output=True,
            check=True,
            timeout=300,
        )
        extracted = _ids(tmp_path / "locale" / "ru" / "LC_MESSAGES" / f"{domain}.po")
        for lang in LANGUAGES:
            ours = _ids(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po")
            missing = sorted(msgid for _, msgid in extracted - ours)
            stale = sorted(msgid for _, msgid in ours - extracted)
            assert not missing, f"{lang} {domain}: run makemessages: {missing}"
            assert not stale, f"{lang} {domain}: no longer in the sources: {stale}"
