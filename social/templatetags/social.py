"""The social buttons other apps' pages carry: a player's page (befriend,
block) and a table waiting for players (invite a friend). Inclusion tags,
so that those pages' views need not know of friends."""

from __future__ import annotations

from django import template

from social import selectors

register = template.Library()


@register.inclusion_tag("social/_player_actions.html", takes_context=True)
def player_actions(context, player):
    """Friend and block buttons for ``player``, as the viewer stands with
    them; nothing for the viewer's own page or a visitor."""
    viewer = context["request"].user
    relation = (
        selectors.relation(viewer.pk, player.pk) if viewer.is_authenticated else "self"
    )
    return {
        "player": player,
        "relation": relation,
        "next": context["request"].get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("social/_invite_form.html", takes_context=True)
def invite_form(context, table):
    """Invite a friend to a free seat: for a player seated at a table
    waiting for players."""
    viewer = context["request"].user
    choices = (
        selectors.invite_choices(viewer.pk, table) if viewer.is_authenticated else None
    )
    return {
        "shown": choices is not None,
        "table": table,
        "friends": choices or [],
        "next": context["request"].get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }
