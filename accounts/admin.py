"""Admin registrations of the accounts app."""

from django.contrib import admin

from accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "language"]
    list_filter = ["language"]
    search_fields = ["user__username", "display_name"]
    raw_id_fields = ["user"]
