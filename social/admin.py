from django.contrib import admin

from common.admin import ReadOnly

from .models import Block, FriendRequest, Friendship, Invitation


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ["blocker", "blocked", "created_at"]
    search_fields = ["blocker__username", "blocked__username"]
    raw_id_fields = ["blocker", "blocked"]
    date_hierarchy = "created_at"


# Friends and invitations change through the players' own pages only
# (social.services); operators look.
@admin.register(FriendRequest)
class FriendRequestAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["sender", "receiver", "created_at"]
    search_fields = ["sender__username", "receiver__username"]
    date_hierarchy = "created_at"


@admin.register(Friendship)
class FriendshipAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["low", "high", "created_at"]
    search_fields = ["low__username", "high__username"]
    date_hierarchy = "created_at"


@admin.register(Invitation)
class InvitationAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["table", "inviter", "invitee", "status", "created_at", "expires_at"]
    list_filter = ["status"]
    search_fields = ["inviter__username", "invitee__username"]
    date_hierarchy = "created_at"
