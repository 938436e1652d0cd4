"""Public pages: read-only, no login, short URLs for QR codes and projectors."""

urlpatterns: list = []
