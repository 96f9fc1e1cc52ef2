"""The admin app, with the site's own admin site (``config.admin.SiteAdmin``)."""

from django.contrib.admin.apps import AdminConfig


class SiteAdminConfig(AdminConfig):
    default_site = "config.admin.SiteAdmin"
