import pytest

from ratings.models import Rating


@pytest.fixture
def ratings_deleted_meanwhile(monkeypatch):
    """Every rating the service is about to lock is deleted just before, as
    by a concurrent revert of its last game, however often it starts again."""

    def delete_instead(ratings, **kwargs):
        user_ids = [rating.user_id for rating in ratings]
        category = ratings[0].category
        Rating.objects.filter(category=category, user_id__in=user_ids).delete()
        return []

    monkeypatch.setattr(Rating.objects, "bulk_create", delete_instead)
