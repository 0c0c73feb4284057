/* ops_world.c - worlds (ops 28-36): the harness's own model of the entries, and every world call but
 * the moves (new, add, remove, update, set, queries with their filters and callbacks, rays, pairs,
 * optimize) compared with brute force over the live entries. */
#include "fz.h"

/* ---- worlds --------------------------------------------------------------------------------- */

/* The harness keeps its own model of the world: every entry added (live or removed), with its own
 * shape (a copy of a slot, so the slots may change freely), user value and bits. */

int fz_entry_of(const fz_state *st, c2d_world_id id)
{
    for (int k = 0; k < st->n_ent; k++)
        if (st->ent[k].live && st->ent[k].id == id)
            return k;
    return -1;
}

int fz_bits_pass(const c2d_world_filter *f, unsigned cat, unsigned mask)
{
    return !f || ((f->category & mask) != 0 && (cat & f->mask) != 0);
}

/* World order: user value, then id. */
static int fz_before(uintptr_t ua, c2d_world_id ia, uintptr_t ub, c2d_world_id ib)
{
    return ua != ub ? ua < ub : ia < ib;
}

void fz_world_snapshot(const fz_state *st, fz_world_snap *sn)
{
    memset(sn, 0, sizeof *sn);
    if (!st->world)
        return;
    FZ_CHECK(c2d_world_count(st->world, &sn->count) == C2D_OK, "world_count failed");
    int live = 0;
    for (int k = 0; k < st->n_ent; k++) {
        const fz_entry *e = &st->ent[k];
        sn->e[k].status = (int)c2d_world_get(st->world, e->id, &sn->e[k].shape, &sn->e[k].user);
        c2d_world_get_bits(st->world, e->id, &sn->e[k].cat, &sn->e[k].mask);
        c2d_status ow_status = c2d_world_get_one_way(st->world, e->id, &sn->e[k].ow);
        /* Enabled and velocity: what op world_enable and world_velocity set (ops_world_entry.c). */
        c2d_status on_status = c2d_world_get_enabled(st->world, e->id, &sn->e[k].on);
        c2d_status vel_status = c2d_world_get_velocity(st->world, e->id, &sn->e[k].vel);
        sn->e[k].vel = fz_v(sn->e[k].vel.x + 0.0, sn->e[k].vel.y + 0.0); /* -0 (no motion) compares as 0 */
        if (e->live) {
            FZ_CHECK(on_status == C2D_OK && sn->e[k].on == !e->off && vel_status == C2D_OK &&
                         fz_vec_eq(sn->e[k].vel, e->vel),
                     "entry %d (id %llu) is %s with velocity (%.17g, %.17g), not %s with (%.17g, %.17g)", k,
                     (unsigned long long)e->id, sn->e[k].on ? "enabled" : "disabled", sn->e[k].vel.x, sn->e[k].vel.y,
                     e->off ? "disabled" : "enabled", e->vel.x, e->vel.y);
            live++;
            FZ_CHECK(sn->e[k].status == C2D_OK && sn->e[k].shape == e->shape && sn->e[k].user == e->user &&
                         sn->e[k].cat == e->cat && sn->e[k].mask == e->mask,
                     "entry %d (id %llu) is not as added: status %d", k, (unsigned long long)e->id, sn->e[k].status);
            FZ_CHECK(ow_status == C2D_OK && fz_vec_eq(sn->e[k].ow, e->ow),
                     "entry %d (id %llu) is one-way along (%.17g, %.17g), not (%.17g, %.17g)", k,
                     (unsigned long long)e->id, sn->e[k].ow.x, sn->e[k].ow.y, e->ow.x, e->ow.y);
        } else {
            FZ_CHECK(sn->e[k].status == C2D_ERR_RANGE, "removed entry %d (id %llu) still answers %d", k,
                     (unsigned long long)e->id, sn->e[k].status);
            FZ_CHECK(ow_status == C2D_ERR_RANGE && sn->e[k].ow.x == 0 && sn->e[k].ow.y == 0,
                     "get_one_way of removed entry %d gave %d or wrote", k, (int)ow_status);
            FZ_CHECK(on_status == C2D_ERR_RANGE && sn->e[k].on == 0 && vel_status == C2D_ERR_RANGE &&
                         sn->e[k].vel.x == 0 && sn->e[k].vel.y == 0,
                     "get_enabled or get_velocity of removed entry %d gave %d, %d or wrote", k, (int)on_status,
                     (int)vel_status);
        }
    }
    FZ_CHECK(sn->count == live, "world counts %d entries, %d are live", sn->count, live);
    const c2d_static_set *lv = (const c2d_static_set *)(void *)fz_sentinel();
    FZ_CHECK(c2d_world_get_level(st->world, &lv) == C2D_OK && lv == (st->level ? st->set : NULL),
             "the world's level is %p, not %p", (const void *)lv, (const void *)(st->level ? st->set : NULL));
}

void fz_world_free(fz_state *st)
{
    st->level = 0; /* the set stays: the world only pointed at it */
    c2d_world_destroy(st->world);
    st->world = NULL;
    for (int k = 0; k < st->n_ent; k++)
        c2d_shape_destroy(st->ent[k].shape);
    st->n_ent = 0;
    for (int k = 0; k < st->n_grave; k++)
        c2d_shape_destroy(st->grave[k]);
    st->n_grave = 0;
}

/* Removes entry k through the API (from a callback too): its shape is freed only after the current
 * call returns, since a query may still hold it. */
void fz_entry_remove(fz_state *st, int k)
{
    fz_entry *e = &st->ent[k];
    FZ_CHECK(c2d_world_remove(st->world, e->id) == C2D_OK, "removing live entry %llu failed",
             (unsigned long long)e->id);
    e->live = 0;
    if (st->n_grave < FZ_MAX_ENTRIES)
        st->grave[st->n_grave++] = e->shape;
    else
        c2d_shape_destroy(e->shape);
    e->shape = NULL;
}

void fz_bury(fz_state *st)
{
    for (int k = 0; k < st->n_grave; k++)
        c2d_shape_destroy(st->grave[k]);
    st->n_grave = 0;
}

void op_world_new(fz_state *st)
{
    uint8_t mode = fz_byte(st);
    if (mode & 1) {
        fz_world_free(st);
        c2d_world *w = (c2d_world *)(void *)fz_sentinel();
        FZ_CHECK(c2d_world_new(NULL) == C2D_ERR_NULL, "world_new(NULL) accepted");
        c2d_status s = c2d_world_new(&w);
        FZ_CHECK(s == C2D_OK || (s == C2D_ERR_NO_MEMORY && w == (c2d_world *)(void *)fz_sentinel()), "world_new gave %d",
                 (int)s);
        if (s == C2D_OK)
            st->world = w;
        st->pair_mod = 0; /* a new world has no pair filter */
    }
    if (mode & 2) {
        double a = fz_number(st), r = fz_number(st);
        fz_world_snap before, after;
        fz_world_snapshot(st, &before);
        c2d_status s = c2d_world_set_margin(st->world, a, r);
        fz_check_status(s);
        int ok = st->world && fz_ok_number(a) && fz_ok_number(r) && a >= 0 && r >= 0;
        fz_world_snapshot(st, &after);
        FZ_CHECK(ok ? s == C2D_OK : s != C2D_OK, "set_margin(%g, %g) gave %d", a, r, (int)s);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "set_margin changed the entries");
    }
}

/* Drops removed entries from the model when it is full (their ids stay invalid). */
static void fz_compact(fz_state *st)
{
    int n = 0;
    for (int k = 0; k < st->n_ent; k++)
        if (st->ent[k].live)
            st->ent[n++] = st->ent[k];
    st->n_ent = n;
}

void op_world_add(fz_state *st)
{
    int slot = fz_slot(st);
    const c2d_shape *s = st->slot[slot];
    uint8_t u = fz_byte(st);
    uintptr_t user = (u & 0x80) ? (uintptr_t)0 - (uintptr_t)(u & 3) : (uintptr_t)(u % 12);
    if (st->n_ent == FZ_MAX_ENTRIES)
        fz_compact(st);
    c2d_world_id id;
    memset(&id, FZ_POISON, sizeof id);
    if (!st->world || !s || st->n_ent == FZ_MAX_ENTRIES) {
        c2d_shape *copy = NULL;
        if (s)
            c2d_shape_clone(s, &copy);
        c2d_status r = c2d_world_add(st->world, copy, user, &id);
        FZ_CHECK(!st->world || !copy ? r == C2D_ERR_NULL : 1, "bad world_add gave %d", (int)r);
        if (r == C2D_OK)
            c2d_world_remove(st->world, id);
        else
            FZ_CHECK(fz_is_poison(&id, sizeof id), "world_add wrote the id on error");
        c2d_shape_destroy(copy);
        return;
    }
    c2d_shape *copy = NULL;
    if (c2d_shape_clone(s, &copy) != C2D_OK)
        return;
    FZ_CHECK(c2d_world_add(st->world, copy, user, NULL) == C2D_ERR_NULL, "world_add to a NULL id accepted");
    c2d_status r = c2d_world_add(st->world, copy, user, &id);
    FZ_CHECK(r == C2D_OK || r == C2D_ERR_NO_MEMORY, "world_add gave %d", (int)r);
    if (r != C2D_OK) {
        c2d_shape_destroy(copy);
        return;
    }
    FZ_CHECK(id != 0 && id < ((uint64_t)1 << 53), "world_add gave id %llu", (unsigned long long)id);
    FZ_CHECK(fz_entry_of(st, id) < 0, "world_add gave id %llu of a live entry", (unsigned long long)id);
    fz_entry *e = &st->ent[st->n_ent++];
    e->id = id;
    e->shape = copy;
    e->user = user;
    e->cat = 1;
    e->mask = C2D_WORLD_ALL_BITS;
    e->live = 1;
    e->ow = fz_v(0, 0); /* a new entry blocks from every side, whatever the entry that had its slot did */
    e->os = st->model[slot].kind == C2D_SHAPE_CHAIN && st->model[slot].one_sided;
    e->off = 0; /* enabled and standing still, whatever the entry that had its slot was */
    e->vel = fz_v(0, 0);
    fz_world_snap sn;
    fz_world_snapshot(st, &sn);
}

/* An entry index of the model (possibly removed), or -1 for a made-up id. */
int fz_entry_pick(fz_state *st, c2d_world_id *id)
{
    uint8_t b = fz_byte(st);
    if (st->n_ent == 0 || b >= 0xF0) {
        static const c2d_world_id bogus[] = {0, 1, 2, 0xFFFFFFFFFFFFFFFFull, (uint64_t)1 << 52, 0x100000,
                                             0x200001, 7};
        *id = bogus[b & 7];
        return -1;
    }
    int k = b % st->n_ent;
    *id = st->ent[k].id;
    return k;
}

void op_world_remove(fz_state *st)
{
    c2d_world_id id;
    int k = fz_entry_pick(st, &id);
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    if (k < 0 && st->world)
        k = fz_entry_of(st, id); /* a made-up id may be that of a live entry */
    int live = k >= 0 && st->ent[k].live;
    if (st->world && live) {
        fz_entry_remove(st, k);
        fz_bury(st);
        fz_world_snapshot(st, &after);
        return;
    }
    c2d_status r = c2d_world_remove(st->world, id);
    fz_check_status(r);
    fz_world_snapshot(st, &after);
    FZ_CHECK(r == (st->world ? C2D_ERR_RANGE : C2D_ERR_NULL), "removing id %llu (not live) gave %d",
             (unsigned long long)id, (int)r);
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected remove changed the world");
}

/* Moves or turns an entry's shape (or replaces its transform), then tells the world. */
void op_world_update(fz_state *st)
{
    c2d_world_id id;
    int k = fz_entry_pick(st, &id);
    uint8_t mode = fz_byte(st);
    c2d_vec2 d = fz_vec(st);
    if (k >= 0 && st->ent[k].live) {
        c2d_shape *s = st->ent[k].shape;
        if (mode & 1)
            c2d_shape_move(s, d);
        if (mode & 2)
            c2d_shape_rotate(s, d.x);
        if (mode & 4)
            c2d_shape_set_position(s, d);
    }
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status r = c2d_world_update(st->world, id);
    fz_check_status(r);
    fz_world_snapshot(st, &after);
    if (st->world && k >= 0 && st->ent[k].live) {
        FZ_CHECK(r == C2D_OK || r == C2D_ERR_NO_MEMORY, "update of a live entry gave %d", (int)r);
    } else if (!st->world || fz_entry_of(st, id) < 0) {
        FZ_CHECK(r == (st->world ? C2D_ERR_RANGE : C2D_ERR_NULL), "update of id %llu gave %d", (unsigned long long)id,
                 (int)r);
    }
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "update changed what the entries are");
}

/* set_bits, set_user, the getters, and the pair filter. */
static int fz_pair_filter(void *ctx, c2d_world_id a, uintptr_t ua, c2d_world_id b, uintptr_t ub);

void op_world_set(fz_state *st)
{
    c2d_world_id id;
    int k = fz_entry_pick(st, &id);
    uint8_t mode = fz_byte(st);
    int live = st->world && k >= 0 && st->ent[k].live;
    if (!live && st->world && fz_entry_of(st, id) >= 0)
        return;
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status r;
    switch (mode % 4) {
    case 0: {
        static const unsigned bits[] = {0, 1, 2, 3, 5, 0x80000000u, 0xFFFFFFFFu, 6};
        unsigned cat = bits[(mode >> 2) & 7], mask = bits[(mode >> 5) & 7];
        r = c2d_world_set_bits(st->world, id, cat, mask);
        if (live && r == C2D_OK) {
            st->ent[k].cat = cat;
            st->ent[k].mask = mask;
        }
        break;
    }
    case 1: {
        uintptr_t user = (uintptr_t)(fz_byte(st) % 12);
        r = c2d_world_set_user(st->world, id, user);
        if (live && r == C2D_OK)
            st->ent[k].user = user;
        break;
    }
    case 2: {
        unsigned cat = 0x1234, mask = 0x5678;
        c2d_shape *sh = fz_sentinel();
        uintptr_t user = 99;
        r = c2d_world_get_bits(st->world, id, &cat, (mode & 4) ? NULL : &mask);
        c2d_status r2 = c2d_world_get(st->world, id, (mode & 8) ? NULL : &sh, &user);
        FZ_CHECK(c2d_world_get(st->world, id, NULL, NULL) == (st->world ? C2D_ERR_NULL : C2D_ERR_NULL) &&
                     c2d_world_get_bits(st->world, id, NULL, NULL) == C2D_ERR_NULL,
                 "get with no outputs accepted");
        FZ_CHECK(r == r2, "get_bits gave %d, get %d", (int)r, (int)r2);
        if (r != C2D_OK)
            FZ_CHECK(cat == 0x1234 && mask == 0x5678 && sh == fz_sentinel() && user == 99, "get wrote on error");
        break;
    }
    default: {
        st->pair_mod = (mode >> 2) % 4;
        r = c2d_world_set_pair_filter(st->world, st->pair_mod ? fz_pair_filter : NULL, st);
        if (!st->world)
            st->pair_mod = 0;
        FZ_CHECK(r == (st->world ? C2D_OK : C2D_ERR_NULL), "set_pair_filter gave %d", (int)r);
        return;
    }
    }
    fz_check_status(r);
    fz_world_snapshot(st, &after);
    if (live) {
        FZ_CHECK(r == C2D_OK, "call on a live entry gave %d", (int)r);
        return;
    }
    FZ_CHECK(r == (st->world ? C2D_ERR_RANGE : C2D_ERR_NULL), "call on id %llu gave %d", (unsigned long long)id,
             (int)r);
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected call changed the world");
}

static int fz_accept(void *ctx, c2d_world_id id, uintptr_t user)
{
    fz_query_ctx *q = (fz_query_ctx *)ctx;
    fz_state *st = q->st;
    int k = fz_entry_of(st, id);
    FZ_CHECK(k >= 0, "accept called for id %llu, not a live entry", (unsigned long long)id);
    FZ_CHECK(st->ent[k].user == user, "accept called with user %llu for an entry of user %llu",
             (unsigned long long)user, (unsigned long long)st->ent[k].user);
    FZ_CHECK(fz_bits_pass(q->filter, st->ent[k].cat, st->ent[k].mask), "accept called for an entry failing the bits");
    FZ_CHECK(!q->called[k], "accept called twice for entry %d", k);
    FZ_CHECK(!st->ent[k].off, "accept called for disabled entry %d (id %llu)", k, (unsigned long long)id);
    q->called[k] = 1;
    q->calls++;
    int yes = ((user + q->salt) & 3) != 0;
    q->said[k] = yes;
    if ((q->mode & 1) && q->calls % 2 == 1) {
        /* Remove some live entry: this one, one already accepted, or one still to come. */
        int live[FZ_MAX_ENTRIES], n = 0;
        for (int j = 0; j < st->n_ent; j++)
            if (st->ent[j].live)
                live[n++] = j;
        if (n > 0)
            fz_entry_remove(st, live[(q->salt + q->calls) % n]);
    }
    return yes;
}

static int fz_pair_filter(void *ctx, c2d_world_id a, uintptr_t ua, c2d_world_id b, uintptr_t ub)
{
    fz_state *st = (fz_state *)ctx;
    int ka = fz_entry_of(st, a), kb = fz_entry_of(st, b);
    FZ_CHECK(ka >= 0 && kb >= 0, "pair filter called for ids that are not live");
    FZ_CHECK(!st->ent[ka].off && !st->ent[kb].off, "pair filter called for a disabled entry");
    FZ_CHECK(st->ent[ka].user == ua && st->ent[kb].user == ub, "pair filter called with wrong user values");
    FZ_CHECK(fz_before(ua, a, ub, b), "pair filter called with a after b in the world's order");
    return (ua + ub) % (uintptr_t)(st->pair_mod + 1) != 0 || st->pair_mod == 1;
}

/* A filter from the input: NULL, or bits and maybe the callback. */
const c2d_world_filter *fz_filter(fz_state *st, c2d_world_filter *f, fz_query_ctx *q)
{
    uint8_t mode = fz_byte(st);
    memset(q, 0, sizeof *q);
    q->st = st;
    if (!(mode & 1))
        return NULL;
    static const unsigned bits[] = {1, 2, 3, 0xFFFFFFFFu, 0, 4, 0x80000001u, 5};
    f->category = bits[(mode >> 1) & 7];
    f->mask = bits[(mode >> 4) & 7];
    f->accept = (mode & 0x80) ? fz_accept : NULL;
    f->ctx = q;
    q->filter = f;
    q->salt = fz_byte(st);
    q->mode = fz_byte(st);
    return f;
}

/* Checks a query's hits against the model: exactly the live entries that pass the bits and the
 * callback and whose shapes pass `test` (1 yes, 0 no, -1 within rounding of touching: either). */
static void fz_check_hits(fz_state *st, const c2d_world_filter *f, const fz_query_ctx *q, const c2d_world_hit *h,
                          int count, int (*test)(const c2d_shape *, const void *), const void *arg)
{
    int seen[FZ_MAX_ENTRIES];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < count; i++) {
        int k = fz_entry_of(st, h[i].id);
        FZ_CHECK(k >= 0, "query reported id %llu, which is not live", (unsigned long long)h[i].id);
        FZ_CHECK(!seen[k], "query reported entry %d twice", k);
        seen[k] = 1;
        FZ_CHECK(h[i].user == st->ent[k].user, "query reported user %llu for an entry of user %llu",
                 (unsigned long long)h[i].user, (unsigned long long)st->ent[k].user);
        if (i > 0)
            FZ_CHECK(fz_before(h[i - 1].user, h[i - 1].id, h[i].user, h[i].id), "query hits %d and %d out of order",
                     i - 1, i);
    }
    for (int k = 0; k < st->n_ent; k++) {
        const fz_entry *e = &st->ent[k];
        if (!e->live || e->off) {
            FZ_CHECK(!seen[k], "%s entry %d reported", e->live ? "disabled" : "removed", k);
            continue;
        }
        int want = fz_bits_pass(f, e->cat, e->mask);
        int geo = want ? test(e->shape, arg) : 0;
        if (want && f && f->accept && geo == 1)
            FZ_CHECK(q->called[k], "the callback was not asked about entry %d (id %llu), which the query finds", k,
                     (unsigned long long)e->id);
        if (want && f && f->accept)
            want = q->called[k] && q->said[k];
        if (geo < 0 && want)
            continue;
        want = want && geo == 1;
        FZ_CHECK(seen[k] == want, "entry %d (id %llu, user %llu, kind %d) %s", k, (unsigned long long)e->id,
                 (unsigned long long)e->user, (int)c2d_shape_get_type(e->shape),
                 want ? "missing from the query" : "reported by the query, but it should not be");
    }
}

static int fz_test_point(const c2d_shape *s, const void *arg)
{
    c2d_vec2 p = *(const c2d_vec2 *)arg;
    int in = 0;
    double d = 0;
    c2d_contains_point(s, p, &in);
    c2d_closest_point(s, p, NULL, &d);
    double tol = FZ_REL_TOL * (1 + fmax(fz_shape_scale(s), fz_vec_mag(p)));
    return fabs(d) <= tol ? -1 : in;
}

static int fz_test_shape(const c2d_shape *s, const void *arg)
{
    const c2d_shape *probe = (const c2d_shape *)arg;
    int o = 0;
    c2d_distance_result d;
    c2d_overlap(probe, s, &o);
    c2d_distance(probe, s, &d);
    double tol = FZ_REL_TOL * (1 + fmax(fz_shape_scale(s), fz_shape_scale(probe)));
    return fabs(d.distance) <= tol ? -1 : o;
}

/* One of the three queries, against the model. */
void op_world_query(fz_state *st)
{
    uint8_t kind = fz_byte(st) % 3;
    c2d_aabb box;
    c2d_vec2 p = fz_v(0, 0);
    const c2d_shape *probe = NULL;
    if (kind == 0) {
        box.min = fz_vec(st);
        c2d_vec2 size = fz_vec(st);
        box.max = fz_v(box.min.x + size.x, box.min.y + size.y);
    } else if (kind == 1) {
        p = fz_vec(st);
    } else {
        probe = st->slot[fz_slot(st)];
        uint8_t b = fz_byte(st);
        if ((b & 1) && st->n_ent > 0 && st->ent[b % st->n_ent].live)
            probe = st->ent[b % st->n_ent].shape; /* an entry's own shape */
    }
    c2d_world_filter fl;
    fz_query_ctx q;
    const c2d_world_filter *f = fz_filter(st, &fl, &q);
    int cap = (int)(fz_byte(st) % (FZ_MAX_ENTRIES + 4)) - 2;
    int null_out = cap == 0 && (fz_byte(st) & 1);
    c2d_world_hit h[FZ_MAX_ENTRIES + 2];
    int count;
    memset(h, FZ_POISON, sizeof h);
    memset(&count, FZ_POISON, sizeof count);
    fz_world_snap before;
    fz_world_snapshot(st, &before);
    c2d_status r;
    int ok = st->world != NULL && cap >= 0;
    c2d_shape *box_shape = NULL;
    if (kind == 0) {
        r = c2d_world_query_aabb(st->world, box, f, null_out ? NULL : h, cap, &count);
        ok = ok && fz_ok_vec(box.min) && fz_ok_vec(box.max) && box.min.x <= box.max.x && box.min.y <= box.max.y;
        if (ok) {
            double w = box.max.x - box.min.x, hh = box.max.y - box.min.y;
            /* A box wider than C2D_MAX_COORDINATE (corners within it, a size beyond) is no rectangle
             * the API takes: the same four corners make a polygon. */
            c2d_vec2 corners[4] = {box.min, fz_v(box.max.x, box.min.y), box.max, fz_v(box.min.x, box.max.y)};
            if (w > 0 && hh > 0 &&
                c2d_rect_new(0.5 * (box.min.x + box.max.x), 0.5 * (box.min.y + box.max.y), w, hh, 0, &box_shape) != C2D_OK)
                c2d_polygon_new(corners, 4, &box_shape);
            else if ((w > 0) != (hh > 0))
                c2d_segment_new(box.min, box.max, &box_shape);
        }
    } else if (kind == 1) {
        r = c2d_world_query_point(st->world, p, f, null_out ? NULL : h, cap, &count);
        ok = ok && fz_ok_vec(p);
    } else {
        r = c2d_world_query_shape(st->world, probe, f, null_out ? NULL : h, cap, &count);
        ok = ok && probe != NULL;
    }
    fz_check_status(r);
    if (!ok) {
        FZ_CHECK(r != C2D_OK && r != C2D_ERR_CAPACITY, "bad query accepted");
        FZ_CHECK(fz_is_poison(h, sizeof h) && fz_is_poison(&count, sizeof count), "query wrote on error");
        FZ_CHECK(q.calls == 0, "a rejected query ran the callback");
        fz_world_snap after;
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected query changed the world");
        c2d_shape_destroy(box_shape);
        return;
    }
    FZ_CHECK(r == C2D_OK || r == C2D_ERR_CAPACITY, "query gave %d", (int)r);
    FZ_CHECK(count >= 0 && count <= FZ_MAX_ENTRIES, "query count %d", count);
    FZ_CHECK((r == C2D_ERR_CAPACITY) == (count > cap && !null_out) && (!null_out || r == C2D_OK),
             "query status %d with count %d and capacity %d", (int)r, count, cap);
    if (r != C2D_OK || null_out) {
        FZ_CHECK(fz_is_poison(h, sizeof h), "query wrote hits beyond the capacity");
        fz_bury(st);
        c2d_shape_destroy(box_shape);
        return;
    }
    FZ_CHECK(fz_is_poison(h + count, sizeof h - (size_t)count * sizeof h[0]), "query wrote past its count");
    if (kind == 0) {
        /* A box the API takes as no shape (1e15 long and 256 high is "collinear" to c2d_polygon_new)
         * has no model here: only a box of no size is tested as its point. */
        if (box_shape)
            fz_check_hits(st, f, &q, h, count, fz_test_shape, box_shape);
        else if (box.max.x == box.min.x && box.max.y == box.min.y)
            fz_check_hits(st, f, &q, h, count, fz_test_point, &box.min);
    } else if (kind == 1) {
        fz_check_hits(st, f, &q, h, count, fz_test_point, &p);
    } else {
        fz_check_hits(st, f, &q, h, count, fz_test_shape, probe);
    }
    c2d_shape_destroy(box_shape);
    fz_bury(st);
}

/* Ray queries against c2d_raycast on every live entry. */
void op_world_ray(fz_state *st)
{
    c2d_vec2 o = fz_vec(st), d = fz_vec(st);
    double max_t = fz_number(st);
    uint8_t all = fz_byte(st) & 1;
    c2d_world_filter fl;
    fz_query_ctx q;
    const c2d_world_filter *f = fz_filter(st, &fl, &q);
    int cap = (int)(fz_byte(st) % (FZ_MAX_ENTRIES + 4)) - 2;
    c2d_world_ray_hit h[FZ_MAX_ENTRIES + 2];
    int count;
    memset(h, FZ_POISON, sizeof h);
    memset(&count, FZ_POISON, sizeof count);
    fz_world_snap before;
    fz_world_snapshot(st, &before);
    c2d_status r = all ? c2d_world_raycast_all(st->world, o, d, max_t, f, h, cap, &count)
                       : c2d_world_raycast(st->world, o, d, max_t, f, h);
    fz_check_status(r);
    int ok = st->world && fz_ok_vec(o) && fz_ok_vec(d) && !(d.x == 0 && d.y == 0) && !isnan(max_t) && max_t >= 0 &&
             (!all || cap >= 0);
    if (!ok) {
        FZ_CHECK(r != C2D_OK && r != C2D_ERR_CAPACITY, "bad world ray accepted");
        FZ_CHECK(fz_is_poison(h, sizeof h) && fz_is_poison(&count, sizeof count), "world ray wrote on error");
        FZ_CHECK(q.calls == 0, "a rejected ray ran the callback");
        fz_world_snap after;
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected ray changed the world");
        return;
    }
    FZ_CHECK(r == C2D_OK || (all && r == C2D_ERR_CAPACITY), "world ray gave %d", (int)r);
    if (r != C2D_OK) {
        FZ_CHECK(count > cap && fz_is_poison(h, sizeof h), "ray capacity %d count %d", cap, count);
        fz_bury(st);
        return;
    }
    int n = all ? count : h[0].ray.hit;
    if (!all && !h[0].ray.hit) {
        c2d_world_ray_hit z;
        memset(&z, 0, sizeof z);
        FZ_CHECK(memcmp(&z, &h[0], sizeof z) == 0, "world raycast miss not all zero");
    }
    FZ_CHECK(n >= 0 && n <= FZ_MAX_ENTRIES, "ray count %d", n);
    /* Each hit: a live entry, hit as c2d_raycast hits its shape, in order of t and then world order. */
    int seen[FZ_MAX_ENTRIES];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < n; i++) {
        int k = fz_entry_of(st, h[i].id);
        FZ_CHECK(k >= 0 && !seen[k] && h[i].user == st->ent[k].user && !st->ent[k].off,
                 "ray hit %d: id %llu not a live enabled entry (or twice)", i, (unsigned long long)h[i].id);
        seen[k] = 1;
        c2d_ray_hit one;
        c2d_raycast(st->ent[k].shape, o, d, max_t, &one);
        FZ_CHECK(h[i].ray.hit == 1 && memcmp(&one, &h[i].ray, sizeof one) == 0,
                 "ray hit %d on entry %d differs from c2d_raycast (t %.17g vs %.17g, hit %d)", i, k, h[i].ray.t, one.t,
                 one.hit);
        FZ_CHECK(isfinite(h[i].ray.t), "ray hit at t %g", h[i].ray.t);
        if (i > 0)
            FZ_CHECK(h[i - 1].ray.t < h[i].ray.t ||
                         (h[i - 1].ray.t == h[i].ray.t && fz_before(h[i - 1].user, h[i - 1].id, h[i].user, h[i].id)),
                     "ray hits %d and %d out of order", i - 1, i);
    }
    int written = all ? n : 1;
    FZ_CHECK(fz_is_poison(h + written, sizeof h - (size_t)written * sizeof h[0]), "ray wrote past its count");
    double first = INFINITY;
    for (int k = 0; k < st->n_ent; k++) {
        const fz_entry *e = &st->ent[k];
        if (!e->live || e->off)
            continue;
        c2d_ray_hit one;
        c2d_raycast(e->shape, o, d, max_t, &one);
        int want = one.hit && isfinite(one.t) && fz_bits_pass(f, e->cat, e->mask);
        if (want && f && f->accept) {
            FZ_CHECK(q.called[k] || !all, "the callback was not asked about entry %d, which the ray hits", k);
            want = q.called[k] && q.said[k];
        }
        if (all)
            FZ_CHECK(seen[k] == want, "entry %d %s", k, want ? "missing from raycast_all" : "wrongly in raycast_all");
        else if (want)
            first = fmin(first, one.t);
    }
    if (!all) {
        /* The first hit: nothing accepted hits earlier (callbacks may stop early, so only that). */
        FZ_CHECK(n == 0 ? first == INFINITY || (f && f->accept) : h[0].ray.t <= first || (f && f->accept),
                 "raycast hit t %.17g but an entry is hit at %.17g", n ? h[0].ray.t : -1.0, first);
    }
    fz_bury(st);
}

void op_world_pairs(fz_state *st)
{
    int cap = (int)(fz_byte(st) % 40) - 2;
    uint8_t mode = fz_byte(st);
    enum { PMAX = FZ_MAX_ENTRIES * (FZ_MAX_ENTRIES - 1) / 2 };
    static c2d_world_pair out[PMAX + 2];
    static c2d_contact con[PMAX + 2];
    int usecap = cap > PMAX ? PMAX : cap;
    int count;
    memset(out, FZ_POISON, sizeof out);
    memset(con, FZ_POISON, sizeof con);
    memset(&count, FZ_POISON, sizeof count);
    int with_contacts = mode & 1;
    fz_world_snap before;
    fz_world_snapshot(st, &before);
    int count_only = (mode & 2) && usecap == 0;
    c2d_status r = c2d_world_pairs(st->world, count_only ? NULL : out, with_contacts ? con : NULL, usecap, &count);
    fz_check_status(r);
    if (!st->world || usecap < 0) {
        FZ_CHECK(r != C2D_OK && r != C2D_ERR_CAPACITY, "bad pairs call accepted");
        FZ_CHECK(fz_is_poison(out, sizeof out) && fz_is_poison(con, sizeof con) && fz_is_poison(&count, sizeof count),
                 "pairs wrote on error");
        fz_world_snap after;
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected pairs changed the world");
        return;
    }
    FZ_CHECK(r == C2D_OK || r == C2D_ERR_CAPACITY, "pairs gave %d", (int)r);
    if (count_only) {
        /* The header's rule for every list: no array asks for the count only, and is answered C2D_OK. */
        FZ_CHECK(r == C2D_OK && count >= 0 && count <= PMAX && fz_is_poison(con, sizeof con),
                 "pairs asked for the count gave %d, count %d", (int)r, count);
        return;
    }
    if (r != C2D_OK) {
        FZ_CHECK(count > usecap && fz_is_poison(out, sizeof out) && fz_is_poison(con, sizeof con),
                 "pairs capacity %d count %d", usecap, count);
        return;
    }
    FZ_CHECK(count >= 0 && count <= usecap, "pairs count %d capacity %d", count, usecap);
    int seen[FZ_MAX_ENTRIES][FZ_MAX_ENTRIES];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < count; i++) {
        int ka = fz_entry_of(st, out[i].a), kb = fz_entry_of(st, out[i].b);
        FZ_CHECK(ka >= 0 && kb >= 0 && ka != kb && !st->ent[ka].off && !st->ent[kb].off,
                 "pair %d: ids %llu, %llu not two live enabled entries", i, (unsigned long long)out[i].a,
                 (unsigned long long)out[i].b);
        FZ_CHECK(out[i].user_a == st->ent[ka].user && out[i].user_b == st->ent[kb].user, "pair %d: wrong users", i);
        FZ_CHECK(fz_before(out[i].user_a, out[i].a, out[i].user_b, out[i].b), "pair %d: a after b", i);
        FZ_CHECK(!seen[ka][kb], "pair %d reported twice", i);
        seen[ka][kb] = 1;
        if (i > 0) {
            const c2d_world_pair *p = &out[i - 1], *c = &out[i];
            int ordered = p->a != c->a ? fz_before(p->user_a, p->a, c->user_a, c->a)
                                       : fz_before(p->user_b, p->b, c->user_b, c->b);
            FZ_CHECK(ordered, "pairs %d and %d out of order", i - 1, i);
        }
        if (with_contacts) {
            c2d_contact want;
            c2d_collide(st->ent[ka].shape, st->ent[kb].shape, &want);
            FZ_CHECK(memcmp(&want, &con[i], sizeof want) == 0, "pair %d: contact differs from c2d_collide", i);
        }
    }
    FZ_CHECK(fz_is_poison(out + count, sizeof out - (size_t)count * sizeof out[0]), "pairs wrote past the count");
    if (with_contacts)
        FZ_CHECK(fz_is_poison(con + count, sizeof con - (size_t)count * sizeof con[0]),
                 "pairs wrote contacts past the count");
    else
        FZ_CHECK(fz_is_poison(con, sizeof con), "pairs wrote contacts though none were asked for");
    for (int ka = 0; ka < st->n_ent; ka++)
        for (int kb = 0; kb < st->n_ent; kb++) {
            const fz_entry *a = &st->ent[ka], *b = &st->ent[kb];
            if (ka == kb || !a->live || !b->live || a->off || b->off || !fz_before(a->user, a->id, b->user, b->id))
                continue;
            int want = (a->cat & b->mask) && (b->cat & a->mask);
            if (want && st->pair_mod)
                want = (a->user + b->user) % (uintptr_t)(st->pair_mod + 1) != 0 || st->pair_mod == 1;
            int o = 0;
            c2d_overlap(a->shape, b->shape, &o);
            want = want && o;
            FZ_CHECK(seen[ka][kb] == want, "entries %d and %d (kinds %d, %d) %s", ka, kb,
                     (int)c2d_shape_get_type(a->shape), (int)c2d_shape_get_type(b->shape),
                     want ? "overlap but are not a pair" : "are a pair but should not be");
        }
}

void op_world_optimize(fz_state *st)
{
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status r = c2d_world_optimize(st->world);
    FZ_CHECK(r == (st->world ? C2D_OK : C2D_ERR_NULL) || r == C2D_ERR_NO_MEMORY, "optimize gave %d", (int)r);
    fz_world_snapshot(st, &after);
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "optimize changed the entries");
    int n = -3;
    FZ_CHECK(c2d_world_count(st->world, NULL) == C2D_ERR_NULL, "count to NULL accepted");
    FZ_CHECK(st->world || (c2d_world_count(NULL, &n) == C2D_ERR_NULL && n == -3), "count of NULL accepted");
}
