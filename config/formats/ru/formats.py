# One way to write dates and times in this language across the site: the
# day, month and year as numbers and a 24-hour clock (Django's own formats
# mix month names with "a.m."/"p.m." for some languages).
DATE_FORMAT = "d.m.Y"
SHORT_DATE_FORMAT = "d.m.Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "d.m.Y, H:i"
SHORT_DATETIME_FORMAT = "d.m.Y, H:i"
