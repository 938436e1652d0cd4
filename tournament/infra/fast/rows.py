"""Model instances from one hand-written query joining several tables: the reads of a busy round's hottest paths.

Django compiles a query anew on every call, and for a row joined with three others (some 100 columns) that
compiling costs several times what PostgreSQL takes to answer: on a round that 2048 players report from
their phones, the player's page and the report's locked read of its match are each made thousands of times.
`Joined` names the tables of such a query once, writes its select list, and turns each row back into one
instance per table (None for a LEFT JOIN that found nothing), the values as the ORM hands them over (JSON,
booleans on SQLite, time zones). The FROM and WHERE are the caller's, with their values as parameters.
"""

from django.db import connection
from django.db.models import Model, QuerySet
from django.db.models.sql import Query


class Joined:
    """The tables of one query, as (alias, model) pairs in the order their columns are selected."""

    def __init__(self, *tables: tuple[str, type[Model]]):
        self.tables = tables
        self.select = ", ".join(f'{alias}."{f.column}"' for alias, model in tables for f in model._meta.concrete_fields)
        self._converters: dict[str, list] = {}

    def rows(self, sql: str, params: list) -> list[list[Model | None]]:
        """Each row of `sql` (which selects `self.select` first, and may select more after it) as its instances;
        any further columns follow the instances as plain values."""
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            raw = cursor.fetchall()
        if not raw:
            return []
        compiler = Query(self.tables[0][1]).get_compiler(connection=connection)
        if connection.alias not in self._converters:
            columns = [f.get_col(alias) for alias, model in self.tables for f in model._meta.concrete_fields]
            self._converters[connection.alias] = compiler.get_converters(columns)
        made = []
        for row in compiler.apply_converters(raw, self._converters[connection.alias]):
            instances, start = [], 0
            for _alias, model in self.tables:
                width = len(model._meta.concrete_fields)
                values = row[start : start + width]
                start += width
                instances.append(model.from_db(connection.alias, None, values) if values[0] is not None else None)
            made.append(instances + list(row[start:]))
        return made

    def one(self, sql: str, params: list) -> list[Model | None] | None:
        found = self.rows(sql, params)
        return found[0] if found else None


def single(queryset: QuerySet):
    """The one row a unique lookup finds, or None: `first()` without the ORDER BY it adds. On the pages every
    phone polls, compiling an ordering for a row that is alone costs more than PostgreSQL takes to find it."""
    return next(iter(queryset.order_by()[:1]), None)
