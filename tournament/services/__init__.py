"""Workflows that span rows, one module per workflow. Every write that public pages can see calls
`locks.changed(event)`, which bumps `Event.version`; caches and ETags are keyed on it. Each workflow raises
`ServiceError` with a sentence a person can act on; views turn it into a message.

Services may import models, the engines, `tournament.text` and `tournament.files`; never views.
Callers import from the module that owns the workflow (`from tournament.services.rounds import
pair_next_round`): there is one import style, and this package re-exports nothing.
"""
