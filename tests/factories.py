"""factory_boy factories shared by the tests."""

import factory
from django.contrib.auth import get_user_model

DEFAULT_PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(DEFAULT_PASSWORD)


class StaffUserFactory(UserFactory):
    is_staff = True
    is_superuser = True
