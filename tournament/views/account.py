"""Signing in and out, and the language switcher (the language itself is chosen in `tournament.text.i18n`)."""

from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_safe

from tournament.models import LanguagePreference
from tournament.text.i18n import keep_in_session, remember, supported


class LoginView(auth_views.LoginView):
    """Django's sign-in, then the account's language for this device's organiser pages."""

    def form_valid(self, form):
        response = super().form_valid(form)
        account = LanguagePreference.objects.filter(user=self.request.user).values_list("language", flat=True).first()
        keep_in_session(self.request, account)
        if supported(account):
            remember(response, account)
        return response


@require_safe
def set_language(request: HttpRequest, code: str) -> HttpResponse:
    """The switcher: a plain link (public pages are shared renderings without a CSRF token).

    Remembers the choice in a cookie, and on the account of a signed-in person, and goes back to `next`
    (a page of this site) or the home page. Changing one's own display language is harmless to force,
    so a GET link is fine here.
    """
    language = supported(code)
    if language is None or language != code:
        raise Http404("No such language.")
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    if request.user.is_authenticated:
        LanguagePreference.objects.update_or_create(user=request.user, defaults={"language": language})
        keep_in_session(request, language)
    response = HttpResponseRedirect(target)
    remember(response, language)
    return response
