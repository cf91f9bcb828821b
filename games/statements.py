"""The move's statements written out once a process, not built by the ORM for every move.

On the POST of a move the ORM spent more CPU building its statements (compiling each query,
resolving its columns and their converters) than the statements' trips to the database
(bench web). These helpers write the same statements once per model and shape, convert the
values as the ORM does (each field's `pre_save` and `get_db_prep_save` on the way in, the
backend's and the field's converters on the way out) and make the same instances
(`Model.from_db`), so what they read and write is what the ORM would. They are for the few
fixed-shape statements of a hot path (games.services, games.follow_ups, mail.outbox), and a
game with its seats (`game_and_seats`: the move's, locked, and the pages' and emails'); the few
others written out (cribsite.auth, games.talk, mail.rows) start from `select` or `by_pk` and make
their rows with `build` or `build_with`. Everything else uses the ORM.
"""

from __future__ import annotations

import weakref
from functools import cache, partial

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.db.models import Model
from django.db.models.base import ModelState
from django.db.models.constants import OnConflict
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init

from games import cribbage, trips
from games.models import Game, Seat


def columns(model, alias=None):
    """The select list of every concrete field of `model`, in its field order (what `build` takes)."""
    return _columns(connection.vendor, model, alias or model._meta.db_table)


@cache
def _columns(vendor, model, alias):
    quote = connection.ops.quote_name
    return ", ".join(f"{quote(alias)}.{quote(field.column)}" for field in model._meta.concrete_fields)


def select(model, joined=None):
    """`SELECT` of every column of `model` `FROM` its table, and with `joined` (the name of a
    foreign key) every column of the row it names, LEFT OUTER JOINed (None where there is none):
    `Model.objects.select_related(joined)` without its WHERE. The rows are what `build` and
    `build_with` take."""
    return _select(connection.vendor, model, joined)


@cache
def _select(vendor, model, joined):
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    if joined is None:
        return f"SELECT {columns(model)} FROM {table}"
    field = model._meta.get_field(joined)
    related = field.related_model
    other = quote(related._meta.db_table)
    return (
        f"SELECT {columns(model)}, {columns(related)} FROM {table} LEFT OUTER JOIN {other}"
        f" ON ({table}.{quote(field.column)} = {other}.{quote(related._meta.pk.column)})"
    )


def by_pk(model, joined=None):
    """`select(model, joined)` of the one row whose primary key is the statement's parameter."""
    return _by_pk(connection.vendor, model, joined)


@cache
def _by_pk(vendor, model, joined):
    quote = connection.ops.quote_name
    return f"{select(model, joined)} WHERE {quote(model._meta.db_table)}.{quote(model._meta.pk.column)} = %s"


def build_with(model, row, joined):
    """The instance of `model` from a row of `select(model, joined)`, with the object its foreign
    key `joined` names (None when there is none) as `select_related(joined)` leaves it."""
    width = len(model._meta.concrete_fields)
    obj = build(model, row[:width])
    field = model._meta.get_field(joined)
    field.set_cached_value(obj, None if row[width] is None else build(field.related_model, row[width:]))
    return obj


_converters_of: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # connection -> {model: converters}


def _converters(model, wrapper):
    """[(index, converters, column)] of `model`'s concrete fields, as a compiler finds them
    (`wrapper`: the thread's own connection)."""
    by_model = _converters_of.setdefault(wrapper, {})
    if model not in by_model:
        found = []
        for index, field in enumerate(model._meta.concrete_fields):
            column = field.get_col(model._meta.db_table)
            converters = wrapper.ops.get_db_converters(column) + column.get_db_converters(wrapper)
            if converters:
                found.append((index, converters, column))
        by_model[model] = found
    return by_model[model]


def build(model, values):
    """The instance of `model` read from the database as `values`: its concrete fields' values in
    field order, as the database driver gave them (a row, or a slice of a joined row)."""
    db = connections[DEFAULT_DB_ALIAS]  # (the thread's own, as `connection` finds it each time it is asked)
    values = list(values)
    for index, converters, column in _converters(model, db):
        value = values[index]
        for converter in converters:
            value = converter(value, column, db)
        values[index] = value
    attnames = _attnames(model)
    if attnames is None or pre_init.has_listeners(model) or post_init.has_listeners(model):
        return model.from_db(db.alias, None, values)
    # What `from_db` makes (Model.__init__ with every field's value, then the state of a row read
    # from the database), each value set as __init__ sets it on a new instance, without its work
    # for keyword arguments, deferred fields and the signals nobody listens to here.
    obj = model.__new__(model)
    state = obj._state = ModelState()
    state.adding, state.db = False, db.alias
    obj.__dict__.update(zip(attnames, values))
    return obj


@cache
def _attnames(model):
    """The attribute names of `model`'s concrete fields, in field order, when `build` may set them
    in the instance's __dict__ itself (the model's __init__ and from_db Django's, and no field's
    attribute one whose setting does more on a new instance); None otherwise."""
    if model.__init__ is not Model.__init__ or model.from_db.__func__ is not Model.from_db.__func__:
        return None
    attnames = []
    for field in model._meta.concrete_fields:
        found = next(
            (klass.__dict__[field.attname] for klass in model.__mro__ if field.attname in klass.__dict__), None
        )
        if found is not None and type(found) not in (DeferredAttribute, ForeignKeyDeferredAttribute):
            return None
        attnames.append(field.attname)
    return tuple(attnames)


def update(obj, fields):
    """UPDATE the row of `obj` with its `fields` (names) as they stand on it, as
    `save(update_fields=fields)` writes them, without save()'s signals: how many rows changed."""
    with connection.cursor() as cursor:
        cursor.execute(*_update(obj, fields))
        return cursor.rowcount


def _update(obj, fields):
    """The statement and parameters of `update(obj, fields)`."""
    model = type(obj)
    targets = [model._meta.get_field(name) for name in fields]
    db = connections[DEFAULT_DB_ALIAS]
    values = [field.get_db_prep_save(field.pre_save(obj, False), db) for field in targets]
    return _update_sql(db.vendor, model, tuple(fields)), [*values, obj.pk]


@cache
def _update_sql(vendor, model, fields):
    quote = connection.ops.quote_name
    meta = model._meta
    targets = [meta.get_field(name) for name in fields]
    _plain(targets)
    sets = ", ".join(f"{quote(field.column)} = %s" for field in targets)
    return f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"


def update_each(changes):
    """UPDATE the rows of several objects of one model in one statement, each with its own
    fields (`changes`: [(obj, field names)]): a field an object does not name keeps its row's
    value (each column is a CASE on the primary key, its row's own value otherwise). The same
    rows as an `update(obj, fields)` for each, in one trip; how many rows changed."""
    statement = _update_each(changes)
    if statement is None:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        return cursor.rowcount


def _update_each(changes):
    """The statement and parameters of `update_each(changes)`, or None when nothing changed."""
    changes = [(obj, tuple(fields)) for obj, fields in changes if fields]
    if len(changes) <= 1:
        return _update(*changes[0]) if changes else None
    model = type(changes[0][0])
    shape = tuple(fields for _, fields in changes)
    db = connections[DEFAULT_DB_ALIAS]
    params = []
    for name in _named(shape):
        field = model._meta.get_field(name)
        for obj, fields in changes:
            if name in fields:
                params += [obj.pk, field.get_db_prep_save(field.pre_save(obj, False), db)]
    params += [obj.pk for obj, _ in changes]
    return _update_each_sql(db.vendor, model, shape), params


def _named(shape):
    """Every field name of `shape` (a field-name tuple per object), once each, sorted."""
    return sorted({name for fields in shape for name in fields})


@cache
def _update_each_sql(vendor, model, shape):
    quote = connection.ops.quote_name
    meta = model._meta
    pk = quote(meta.pk.column)
    _plain([meta.get_field(name) for name in _named(shape)])
    sets = []
    for name in _named(shape):
        column = quote(meta.get_field(name).column)
        cases = " ".join("WHEN %s THEN %s" for fields in shape if name in fields)
        sets.append(f"{column} = CASE {pk} {cases} ELSE {column} END")
    keys = ", ".join(["%s"] * len(shape))
    return f"UPDATE {quote(meta.db_table)} SET {', '.join(sets)} WHERE {pk} IN ({keys})"


def insert(objs, *, ignore_conflicts=False):
    """INSERT `objs` (instances of one model, their primary keys not set) as `bulk_create` does:
    with `ignore_conflicts`, a row whose unique key is taken already is left out and its object
    unchanged; otherwise each object gets its primary key (where the database returns it) and is
    marked saved. No signals, as bulk_create."""
    objs = list(objs)
    if not objs:
        return objs
    model = type(objs[0])
    returning = not ignore_conflicts and connection.features.can_return_rows_from_bulk_insert
    for batch, params in _batches(model, objs):
        sql = _insert_sql(connection.vendor, model, len(batch), ignore_conflicts, returning)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall() if returning else None
        if not ignore_conflicts:
            _saved(batch, rows)
    return objs


def _saved(batch, rows):
    """Each object of `batch` given its key (from `rows`, the keys the insert returned, when it
    did) and marked saved."""
    alias = connections[DEFAULT_DB_ALIAS].alias
    if rows is not None:
        if len(rows) != len(batch):
            raise DatabaseError(f"The insert of {len(batch)} rows returned {len(rows)} keys.")
        for obj, (pk,) in zip(batch, rows):
            obj.pk = pk
    for obj in batch:
        obj._state.adding = False
        obj._state.db = alias


def write_move(events, game, fields, changes, state=None):
    """A move's writes: `insert(events)`, then `update(game, fields)`, then `update_each(changes)`
    (its seats), as those write them; DatabaseError when the game row was not there (as
    save(update_fields=...) refuses). On PostgreSQL in one trip: one query of the statements, run
    in order, the first that fails stopping the rest (a taken sequence number leaves nothing
    written); inside `trips.one_trip`, with the trip's other writes, when it goes. There, with
    `state` (the engine state of the snapshot written), the snapshot's text as the database keeps
    it comes back with the update, and `state_of` knows that text's State without decoding it."""
    events = list(events)
    batches = list(_batches(type(events[0]), events)) if events else []
    vendor = connections[DEFAULT_DB_ALIAS].vendor
    if vendor != "postgresql" or len(batches) > 1:
        insert(events)
        _updated_game(update(game, fields))
        update_each(changes)
        return
    with trips.one_trip() as trip:
        if batches:
            (batch, params), model = batches[0], type(events[0])
            sql = _insert_sql(vendor, model, len(batch), False, True)
            trip.add(sql, params, lambda cursor: _saved(events, cursor.fetchall()))
        sql, params = _update(game, fields)
        if state is None or "snapshot" not in fields:
            trip.add(sql, params, lambda cursor: _updated_game(cursor.rowcount))
        else:
            trip.add(_returning_snapshot(sql), params, partial(_updated_snapshot, game, game.snapshot, state))
        seats = _update_each(changes)
        if seats is not None:
            trip.add(*seats)


@cache
def _returning_snapshot(sql):
    quote = connection.ops.quote_name
    return f"{sql} RETURNING {quote(Game._meta.db_table)}.{quote(Game._meta.get_field('snapshot').column)}"


def _updated_snapshot(game, snapshot, state, cursor):
    _updated_game(cursor.rowcount)
    (text,) = cursor.fetchone()
    game.__dict__[_READ] = (snapshot, text)
    _keep_state(text, state)


def _updated_game(count):
    if count != 1:
        raise DatabaseError("Save with update_fields did not affect any rows.")


def insert_new(objs, *, by, then=None):
    """INSERT `objs` (instances of one model, their primary keys not set) leaving out each whose
    unique key is taken already, as `bulk_create(ignore_conflicts=True)` does, and say which were
    new: those objects, in their order, each given its primary key and marked saved (the others
    are unchanged). `by`: the name of a unique field telling the objects apart. None when the
    database cannot say which rows it wrote (the objects are written all the same).

    With `then`, `then(new)` is called with that answer once the rows are written: at once, or,
    inside `trips.one_trip` on PostgreSQL, when the trip goes (and this returns None)."""
    objs = list(objs)
    if not objs:
        return _answer([], then)
    db = connections[DEFAULT_DB_ALIAS]
    if not db.features.can_return_rows_from_bulk_insert:
        insert(objs, ignore_conflicts=True)
        return _answer(None, then)
    model = type(objs[0])
    batches = list(_batches(model, objs))
    trip = trips.current()
    if trip is not None and then is not None and len(batches) == 1:
        (batch, params) = batches[0]

        def written(cursor):
            then(_new(objs, by, cursor.fetchall()))

        trip.add(_insert_sql(db.vendor, model, len(batch), True, by), params, written)
        return None
    rows = []
    for batch, params in batches:
        with connection.cursor() as cursor:
            cursor.execute(_insert_sql(connection.vendor, model, len(batch), True, by), params)
            rows += cursor.fetchall()
    return _answer(_new(objs, by, rows), then)


def _answer(new, then):
    if then is not None:
        then(new)
    return new


def _new(objs, by, rows):
    """The objects of `objs` whose rows (pk, `by`) the insert returned, given their keys."""
    new = {value: pk for pk, value in rows}
    alias = connections[DEFAULT_DB_ALIAS].alias
    written = []
    for obj in objs:
        pk = new.pop(getattr(obj, by), None)  # (two objects with one key: one row, said of the first)
        if pk is not None:
            obj.pk, obj._state.adding, obj._state.db = pk, False, alias
            written.append(obj)
    return written


def _batches(model, objs):
    """`objs` in batches of the size the database takes, each with its values to insert (each
    field's `pre_save` and `get_db_prep_save`, as bulk_create)."""
    fields = _inserted_fields(model)
    db = connections[DEFAULT_DB_ALIAS]
    size = max(1, db.ops.bulk_batch_size(fields, objs))
    for start in range(0, len(objs), size):
        batch = objs[start : start + size]
        yield (
            batch,
            [field.get_db_prep_save(field.pre_save(obj, True), db) for obj in batch for field in fields],
        )


@cache
def _inserted_fields(model):
    meta = model._meta
    fields = [field for field in meta.concrete_fields if not field.generated and field is not meta.auto_field]
    _plain(fields)
    return fields


@cache
def _insert_sql(vendor, model, count, ignore_conflicts, returning):
    ops = connection.ops
    meta = model._meta
    fields = _inserted_fields(model)
    on_conflict = OnConflict.IGNORE if ignore_conflicts else None
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"{ops.insert_statement(on_conflict=on_conflict)} {ops.quote_name(meta.db_table)}"
        f" ({', '.join(ops.quote_name(field.column) for field in fields)}) VALUES {', '.join([row] * count)}"
    )
    suffix = ops.on_conflict_suffix_sql(fields, on_conflict, None, None)
    if suffix:
        sql += f" {suffix}"
    if returning:  # True: the primary key; a field's name: the primary key and that field
        returned, _ = ops.return_insert_columns(
            [meta.pk] if returning is True else [meta.pk, meta.get_field(returning)]
        )
        sql += f" {returned}"
    return sql


def _plain(fields):
    """These statements write every value as a plain parameter (%s)."""
    for field in fields:
        if hasattr(field, "get_placeholder"):
            raise TypeError(f"{field} writes its values through a placeholder of its own: use the ORM.")


# --- The move's game and seats -----------------------------------------------------------------


def locked_with_seats(game_id):
    """The game row, locked until the transaction ends, and its seats with their players
    (`Game.objects.select_for_update().get(pk=game_id)` and `game.seats.select_related("player")`),
    the seats by number."""
    game, seats = game_and_seats(game_id, lock=True)
    return game, {seat.number: seat for seat in seats}


def game_and_seats(game_id, *, lock=False, then=None):
    """The game row and its seats in order, each with its game and its player (None: the
    computer), as the ORM would make them; the game locked until the transaction ends if `lock`.

    Two statements on purpose: the seats are read after the lock is granted, so
    they include what a move that held the lock before this one wrote to them
    (a single joined SELECT ... FOR UPDATE would return the game's new row but
    the seats as they were when it started waiting). On PostgreSQL they go in one
    trip, one query of two statements (each reads the database as it stands when it
    starts): the reader waits for the server once, not twice.

    `then`: (a statement, its parameters) read after them, in the same trip on PostgreSQL
    (a page's other reads, its own statement otherwise): its rows are returned third.
    """
    pk = Game._meta.pk.get_prep_value(game_id)
    db = connections[DEFAULT_DB_ALIAS]
    low, high = db.ops.integer_field_range(Game._meta.pk.get_internal_type())
    if not low <= pk <= high:  # no such row, as the ORM says (SQLite cannot even be asked)
        raise Game.DoesNotExist(f"{Game._meta.object_name} matching query does not exist.")
    with db.cursor() as cursor:
        together = db.vendor == "postgresql"
        if together and then is not None:
            cursor.execute(f"{_game_and_seats_sql(db.vendor, lock)}; {then[0]}", [pk, pk, *then[1]])
        elif together:
            cursor.execute(_game_and_seats_sql(db.vendor, lock), [pk, pk])
        else:
            cursor.execute(_game_sql(db.vendor, lock), [pk])
        row = cursor.fetchone()
        if row is None:
            raise Game.DoesNotExist(f"{Game._meta.object_name} matching query does not exist.")
        game = build(Game, row)
        game.__dict__[_READ] = (game.snapshot, row[_snapshot_index()])  # (state_of)
        if together:
            cursor.nextset()
        else:
            cursor.execute(_seats_sql(db.vendor), [pk])
        rows = cursor.fetchall()
        if then is not None:
            if together:
                cursor.nextset()
            else:
                cursor.execute(*then)
            then_rows = cursor.fetchall()
    seats = [build_with(Seat, row, "player") for row in rows]
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    if then is not None:
        return game, seats, then_rows
    return game, seats


@cache
def _game_sql(vendor, lock):
    """Game.objects.get(pk=...) written out, with select_for_update() if `lock`."""
    locked = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    return f"{by_pk(Game)}{locked}"


@cache
def _game_and_seats_sql(vendor, lock):
    return f"{_game_sql(vendor, lock)}; {_seats_sql(vendor)}"


@cache
def _seats_sql(vendor):
    """game.seats.select_related("player"), written out."""
    quote = connection.ops.quote_name
    seat = quote(Seat._meta.db_table)
    return (
        f"{select(Seat, 'player')} WHERE {seat}.{quote('game_id')} = %s"
        f" ORDER BY {seat}.{quote('game_id')}, {seat}.{quote('number')}"
    )


# --- A game's engine state, decoded once a process for each snapshot read ---------------------

_READ = "_snapshot_read"  # on a Game from game_and_seats: (its snapshot, the snapshot's text as read)
_STATES: dict[str, object] = {}  # the text of a snapshot read -> its State
KEPT_STATES = 256


def state_of(game):
    """`cribbage.state_from_json(game.snapshot)`, decoded once a process for each snapshot
    `game_and_seats` reads, by its text as the database gave it (the same text is the same
    State; a State never changes): the move decodes the snapshot its page read before it, and the
    pages of everyone at the table the one snapshot. A snapshot set since it was read (a move's
    own, or a game from elsewhere) is decoded as it is."""
    read = game.__dict__.get(_READ)
    if read is None or read[0] is not game.snapshot:
        return cribbage.state_from_json(game.snapshot)
    text = read[1]
    state = _STATES.get(text)
    if state is None:
        state = cribbage.state_from_json(game.snapshot)
        _keep_state(text, state)
    return state


def _keep_state(text, state):
    if len(_STATES) >= KEPT_STATES:
        try:
            del _STATES[next(iter(_STATES))]  # the first kept (threads may race to it: either goes)
        except (KeyError, RuntimeError, StopIteration):
            pass
    _STATES[text] = state


@cache
def _snapshot_index():
    return [field.attname for field in Game._meta.concrete_fields].index("snapshot")
