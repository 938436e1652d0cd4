"""What turns data into words: the language a page speaks (`i18n`), figures and tie-breaker names as each
language writes them (`l10n`), sentences for organisers (`wording`), the engines' messages (`engine_text`),
compiling the catalogs (`catalogs`), how players are named (`names`) and how names are searched and sorted
(`name_search`).

May import models and the engines; never views, urls or services.
"""
