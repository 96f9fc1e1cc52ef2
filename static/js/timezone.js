// Tell the server the browser's time zone, so that times are shown in it
// (accounts.middleware.UserTimeZoneMiddleware; a zone chosen in the profile
// wins). The cookie holds an IANA name, URL-encoded ("Asia%2FTbilisi"), which
// accounts.timezones.zone_from_cookie decodes; the server
// ignores any name its time-zone database does not know.
(function () {
  "use strict";
  var COOKIE = "pulka_tz";
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  if (!zone) {
    return;
  }
  var current = document.cookie.split("; ").find(function (item) {
    return item.indexOf(COOKIE + "=") === 0;
  });
  var value = encodeURIComponent(zone);
  if (current === COOKIE + "=" + value) {
    return;
  }
  document.cookie =
    COOKIE + "=" + value + "; path=/; max-age=31536000; SameSite=Lax" +
    (location.protocol === "https:" ? "; Secure" : "");
})();
