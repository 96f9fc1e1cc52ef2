"""Blocks: one a pair, never of oneself, read either way."""

import pytest
from django.db import IntegrityError

from common.errors import NotAllowed
from social import selectors, services
from social.models import Block
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_block_is_one_way_and_read_either_way():
    nino, giorgi, tamar = UserFactory.create_batch(3)
    services.block_create(blocker_id=nino.pk, blocked_id=giorgi.pk)

    assert selectors.blocks(nino.pk, giorgi.pk)
    assert not selectors.blocks(giorgi.pk, nino.pk)
    assert selectors.blocked_either_way(giorgi.pk, nino.pk)
    assert not selectors.blocked_either_way(nino.pk, tamar.pk)
    assert selectors.blocked_ids(nino.pk) == {giorgi.pk}


def test_blocking_twice_keeps_one_block_and_lifting_it_ends_it():
    nino, giorgi = UserFactory.create_batch(2)
    first = services.block_create(blocker_id=nino.pk, blocked_id=giorgi.pk)
    again = services.block_create(blocker_id=nino.pk, blocked_id=giorgi.pk)
    assert again.pk == first.pk
    assert Block.objects.count() == 1

    services.block_delete(blocker_id=nino.pk, blocked_id=giorgi.pk)
    services.block_delete(blocker_id=nino.pk, blocked_id=giorgi.pk)
    assert not selectors.blocked_either_way(nino.pk, giorgi.pk)


def test_nobody_blocks_themselves():
    nino = UserFactory()
    with pytest.raises(NotAllowed):
        services.block_create(blocker_id=nino.pk, blocked_id=nino.pk)
    with pytest.raises(IntegrityError):
        Block.objects.create(blocker=nino, blocked=nino, created_at="2026-12-04T12:00Z")
