/* ops_level.c - a world's level (ops 51, 52: c2d_world_set_level, and world moves, turning moves and ball
 * steps through it), casts (op 53: c2d_static_set_cast, c2d_world_cast), world push-outs (op 54:
 * c2d_world_push_out) and timed moves (op 55: the four _timed_report calls).
 *
 * The harness has one static set and one world; op world_level makes the set the world's level (or
 * none), and the model remembers it (st->level), so that freeing the set first gives the world no
 * level (fz_set_free) and every world snapshot checks c2d_world_get_level. With a level, op world_move
 * (ops_world_move.c) takes contacts with id 0 as the level's and checks the mover's end against its
 * shapes too. Where the world has no entry, every world motion through the level must be the set's own
 * call, bit for bit (the header's "where no entry is within reach"). */
#include "fz.h"

/* Move options that a world with a level (of n shapes) accepts: as fz_move_options judges them, with
 * the per-shape array read for the level's n shapes only. */
int fz_level_options_ok(const c2d_move_options *o, int n)
{
    if (!o)
        return 1;
    if ((int)o->response > 4 || !isfinite(o->restitution) || o->restitution < 0 || o->restitution > 1 ||
        !isfinite(o->friction) || o->friction < 0 || o->friction > C2D_MAX_COORDINATE)
        return 0;
    for (int i = 0; o->responses && i < n; i++)
        if ((int)o->responses[i] > 4)
            return 0;
    return 1;
}

/* A contact or record with id 0 names a shape of the world's level: its index there and its value. */
int fz_level_contact_ok(const fz_state *st, int index, uintptr_t user)
{
    return st->level && index >= 0 && index < st->set_n && user == st->set_user[index];
}

/* Receives the records of a _report call. */
typedef struct fz_report_ctx {
    int calls, count;
    c2d_contact_record *buf;
} fz_report_ctx;

static c2d_status fz_report(void *ctx, const c2d_contact_record *r, int n)
{
    fz_report_ctx *rc = (fz_report_ctx *)ctx;
    rc->calls++;
    rc->count = n;
    FZ_CHECK(n >= 0 && (n == 0 || r), "report handed %d records at %p", n, (const void *)r);
    memcpy(rc->buf, r, (size_t)(n < FZ_REC_MAX ? n : FZ_REC_MAX) * sizeof *r);
    return C2D_OK;
}

static void fz_report_start(fz_report_ctx *rc, c2d_contact_record *buf)
{
    rc->calls = 0;
    rc->count = -1;
    rc->buf = buf;
    memset(buf, FZ_POISON, FZ_REC_MAX * sizeof *buf);
}

/* The world holds no live entry (nothing can be near a motion: it runs through the level itself). */
static int fz_world_empty(const fz_state *st)
{
    int n = -1;
    return st->world && c2d_world_count(st->world, &n) == C2D_OK && n == 0;
}

/* op world_level: c2d_world_set_level with the set or NULL (a NULL world refused), optionally giving
 * the set's shapes user values first (c2d_static_set_set_user; out-of-range indices refused, writing
 * nothing). The world's entries are unchanged, and c2d_world_get_level gives what was set. */
void op_world_level(fz_state *st)
{
    uint8_t mode = fz_byte(st);
    if ((mode & 2) && st->set) {
        for (int i = 0; i < st->set_n; i++) {
            uintptr_t u = (mode & 4) ? (uintptr_t)(i * 7 + 1) : ~(uintptr_t)i;
            FZ_CHECK(c2d_static_set_set_user(st->set, i, u) == C2D_OK, "set_user(%d) failed", i);
            st->set_user[i] = u;
            uintptr_t got = 0;
            FZ_CHECK(c2d_static_set_get_user(st->set, i, &got) == C2D_OK && got == u, "get_user(%d) is not set_user",
                     i);
        }
        uintptr_t got = (uintptr_t)0xA5A5A5A5u;
        FZ_CHECK(c2d_static_set_set_user(st->set, st->set_n, 3) == C2D_ERR_RANGE &&
                     c2d_static_set_set_user(st->set, -1, 3) == C2D_ERR_RANGE &&
                     c2d_static_set_get_user(st->set, st->set_n, &got) == C2D_ERR_RANGE && got == 0xA5A5A5A5u,
                 "set_user or get_user of a shape out of range accepted or wrote");
    }
    const c2d_static_set *want = (mode & 1) ? st->set : NULL;
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status s = c2d_world_set_level(st->world, want);
    fz_check_status(s);
    if (!st->world) {
        FZ_CHECK(s == C2D_ERR_NULL, "set_level on no world gave %d", (int)s);
        return;
    }
    FZ_CHECK(s == C2D_OK, "set_level gave %d", (int)s);
    st->level = want != NULL;
    FZ_CHECK(c2d_world_get_level(st->world, NULL) == C2D_ERR_NULL && c2d_world_get_level(NULL, &want) == C2D_ERR_NULL,
             "get_level with NULL accepted");
    fz_world_snapshot(st, &after); /* checks get_level */
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "set_level changed the entries");
}

/* op world_level_move: a world move, ball step or turning move (their _report forms) through a world
 * that has the set as its level (given here when the world has none, mode bit 7). Refused input writes
 * nothing and reports nothing; accepted, every record names a live entry or a shape of the level (id 0,
 * its index and value), in time order. With no entry in the world the answer is the set's own call,
 * bit for bit: status, result, ball, angle turned, and every record (id 0 and the shape's value in
 * both). */
void op_world_level_move(fz_state *st)
{
    uint8_t kind = fz_byte(st);
    int which = kind % 3; /* 0 move, 1 ball step, 2 turning move */
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_vec2 d = fz_v(0, 0);
    c2d_ball b;
    memset(&b, 0, sizeof b);
    double dt = 1;
    c2d_motion mo;
    const c2d_motion *mp = NULL;
    if (which == 0)
        d = fz_vec(st);
    else if (which == 1) {
        b = fz_ball(st);
        dt = fz_number(st);
    } else
        mp = fz_motion(st, m, &mo);
    c2d_move_options o;
    c2d_response arr[FZ_SET_MAX], resp[FZ_SET_MAX];
    int opt_ok;
    c2d_response dflt = which == 1 ? C2D_RESPONSE_BOUNCE : C2D_RESPONSE_SLIDE;
    const c2d_move_options *op = fz_move_options(st, &o, arr, st->set_n, dflt, resp, &opt_ok);
    if ((kind & 0x80) && st->world && st->set && !st->level) {
        FZ_CHECK(c2d_world_set_level(st->world, st->set) == C2D_OK, "set_level failed");
        st->level = 1;
    }
    if (op && op->responses && !st->level)
        opt_ok = 0; /* per-shape arrays are for a level's shapes */
    int empty = fz_world_empty(st);
    c2d_move_result res, res2;
    double turned, turned2;
    c2d_ball b1 = b, b2 = b;
    fz_report_ctx r1, r2;
    memset(&res, FZ_POISON, sizeof res);
    memset(&res2, FZ_POISON, sizeof res2);
    memset(&turned, FZ_POISON, sizeof turned);
    memset(&turned2, FZ_POISON, sizeof turned2);
    fz_report_start(&r1, fz_rec);
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status s = which == 0   ? c2d_world_move_report(st->world, m, d, NULL, NULL, NULL, op, &res, fz_report, &r1)
                   : which == 1 ? c2d_world_step_ball_report(st->world, &b1, dt, NULL, NULL, NULL, op, &res, fz_report, &r1)
                                : c2d_world_move_turning_report(st->world, m, mp, NULL, NULL, NULL, op, &res, &turned,
                                                                fz_report, &r1);
    fz_check_status(s);
    fz_world_snapshot(st, &after);
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a world move through a level changed the world");
    if (fz_trace)
        fprintf(stderr, " -> %s %d level %d empty %d count %d", which == 0 ? "move" : which == 1 ? "ball" : "turning",
                (int)s, st->level, empty, s == C2D_OK ? res.count : -1);
    int ok = st->world && opt_ok &&
             (which == 1 ? fz_ball_ok(&b, dt)
                         : m && !fz_is_compound(m) &&
                               (which == 0 ? fz_ok_vec(d) : mp && (fz_motion_allowed(m, mp) & (1u << C2D_OK))));
    if (s != C2D_OK || !ok) {
        FZ_CHECK(s != C2D_OK, "bad world %s through a level accepted", which == 1 ? "ball step" : "move");
        FZ_CHECK(fz_is_poison(&res, sizeof res) && fz_is_poison(&turned, sizeof turned) && r1.calls == 0 &&
                     memcmp(&b1, &b, sizeof b) == 0,
                 "a refused world %s (%d) wrote, reported or changed the ball", which == 1 ? "ball step" : "move",
                 (int)s);
    } else {
        fz_check_move_result(&res);
        FZ_CHECK(r1.calls == 1 && r1.count == res.count, "report called %d times with %d records of %d", r1.calls,
                 r1.count, res.count);
        double last = 0;
        for (int i = 0; i < res.count && i < FZ_REC_MAX; i++) {
            const c2d_contact_record *r = &fz_rec[i];
            FZ_CHECK(r->contact.t >= last && r->contact.t <= 1, "record %d at t %.17g after %.17g", i, r->contact.t,
                     last);
            last = r->contact.t;
            fz_check_unit(r->contact.normal, "level move record normal");
            if (r->id == 0)
                FZ_CHECK(fz_level_contact_ok(st, r->contact.index, r->user),
                         "record %d has id 0 but names no shape of the level (index %d user %llu)", i,
                         r->contact.index, (unsigned long long)r->user);
            else {
                int k = fz_entry_of(st, r->id);
                FZ_CHECK(k >= 0 && st->ent[k].user == r->user && !st->ent[k].off,
                         "record %d names id %llu, no live enabled entry", i, (unsigned long long)r->id);
            }
        }
        if (which == 2)
            FZ_CHECK(isfinite(turned), "turned %g", turned);
    }
    if (!st->level || !empty)
        return;
    /* No entry: the set's own call, bit for bit. */
    fz_report_start(&r2, fz_rec_short);
    c2d_status s2 = which == 0 ? c2d_static_set_move_report(st->set, m, d, op, &res2, fz_report, &r2)
                    : which == 1
                        ? c2d_static_set_step_ball_report(st->set, &b2, dt, op, &res2, fz_report, &r2)
                        : c2d_static_set_move_turning_report(st->set, m, mp, op, &res2, &turned2, fz_report, &r2);
    /* Both refuse or both accept. Input with several faults may be named by another of them: the world
     * checks a ball's radius before the option values, the set after (a ball of radius 0 with a
     * restitution of 2: C2D_ERR_SIZE from the world, C2D_ERR_RANGE from the set), and the header
     * promises the set's answer for a motion, not which fault a refusal names. */
    FZ_CHECK((s2 == C2D_OK) == (s == C2D_OK), "through a level with no entries the world %s gave %d, the set's own call %d",
             which == 0 ? "move" : which == 1 ? "ball step" : "turning move", (int)s, (int)s2);
    if (s != C2D_OK)
        return;
    FZ_CHECK(fz_result_same(&res, &res2) && memcmp(&b1, &b2, sizeof b1) == 0 &&
                 (which != 2 || fz_same_bits(turned, turned2)),
             "through a level with no entries the world %s moved (%.17g, %.17g) count %d, the set (%.17g, %.17g) count "
             "%d",
             which == 0 ? "move" : which == 1 ? "ball step" : "turning move", res.displacement.x, res.displacement.y,
             res.count, res2.displacement.x, res2.displacement.y, res2.count);
    FZ_CHECK(r2.calls == 1 && r2.count == r1.count, "the set reported %d records, the world %d", r2.count, r1.count);
    for (int i = 0; i < res.count && i < FZ_REC_MAX; i++)
        FZ_CHECK(fz_record_same(&fz_rec[i], &fz_rec_short[i]),
                 "record %d of the world through its level (id %llu index %d user %llu t %.17g) is not the set's "
                 "(index %d user %llu t %.17g)",
                 i, (unsigned long long)fz_rec[i].id, fz_rec[i].contact.index, (unsigned long long)fz_rec[i].user,
                 fz_rec[i].contact.t, fz_rec_short[i].contact.index, (unsigned long long)fz_rec_short[i].user,
                 fz_rec_short[i].contact.t);
}

/* A cast that met nothing: t 1, where the displacement ends, and nothing named. */
static void fz_check_cast_none(const c2d_cast *c, const c2d_shape *m, c2d_vec2 d, const char *what)
{
    c2d_vec2 p;
    c2d_shape_get_position(m, &p);
    FZ_CHECK(c->t == 1 && c->index == -1 && c->id == 0 && c->user == 0 && c->depth == 0 && c->normal.x == 0 &&
                 c->normal.y == 0 && fz_same_bits(c->position.x, p.x + d.x) && fz_same_bits(c->position.y, p.y + d.y),
             "%s NONE: t %.17g index %d id %llu user %llu depth %g normal (%g, %g) position (%.17g, %.17g)", what, c->t,
             c->index, (unsigned long long)c->id, (unsigned long long)c->user, c->depth, c->normal.x, c->normal.y,
             c->position.x, c->position.y);
}

/* A cast that met a shape (HIT or INSIDE): t in [0, 1] (0 for INSIDE), a unit normal, the position
 * start + t * d, depth 0 for a HIT; and for a HIT the mover placed there touches the shape it names
 * (`met`, NULL to skip, where its velocity mv has taken it at t), as a record's position does. */
static void fz_check_cast_met(const c2d_cast *c, const c2d_shape *m, c2d_vec2 d, const c2d_shape *met, c2d_vec2 mv,
                              int by_parts, double scale, const char *what)
{
    c2d_vec2 p;
    c2d_shape_get_position(m, &p);
    FZ_CHECK(c->state == C2D_CAST_HIT || c->state == C2D_CAST_INSIDE, "%s state %d", what, (int)c->state);
    FZ_CHECK(isfinite(c->t) && c->t >= 0 && c->t <= 1 && (c->state == C2D_CAST_HIT || c->t == 0),
             "%s state %d at t %.17g", what, (int)c->state, c->t);
    fz_check_unit(c->normal, what);
    FZ_CHECK(fz_finite_vec(c->point) && isfinite(c->depth) && c->depth >= 0 && (c->state == C2D_CAST_INSIDE || c->depth == 0),
             "%s point or depth %g", what, c->depth);
    double tol = FZ_REL_TOL * (1 + scale);
    c2d_vec2 want = fz_v(p.x + d.x * c->t, p.y + d.y * c->t);
    FZ_CHECK(fz_len(fz_sub(c->position, want)) <= tol, "%s at t %.17g stands at (%.17g, %.17g), not (%.17g, %.17g)", what,
             c->t, c->position.x, c->position.y, want.x, want.y);
    if (c->state != C2D_CAST_HIT || !met)
        return;
    c2d_contact_record r;
    memset(&r, 0, sizeof r);
    r.contact.t = c->t;
    r.contact.point = c->point;
    r.contact.normal = c->normal;
    r.position = c->position;
    fz_check_record_position(&r, 0, m, 0, met, mv, c->t, scale, by_parts);
}

/* op casts: c2d_static_set_cast is c2d_static_set_sweep in the containers' convention (state, t,
 * point, depth and index the sweep's, the normal negated, id 0, the shape's value, where the mover
 * stands); c2d_world_cast names a live entry passing the filter, or a shape of the level; through a
 * level with no entries it is the set's cast, field by field; with neither, nothing is met. Bad input
 * (NULL, a compound mover, a bad displacement, a NULL answer) writes nothing. */
void op_casts(fz_state *st)
{
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_vec2 d = fz_vec(st);
    uint8_t mode = fz_byte(st);
    c2d_world_filter fl;
    const c2d_world_filter *f = NULL;
    if (mode & 1) {
        static const unsigned bits[] = {1, 2, 3, 0xFFFFFFFFu, 0, 4, 0x80000001u, 5};
        memset(&fl, 0, sizeof fl);
        fl.category = bits[(mode >> 1) & 7];
        fl.mask = bits[(mode >> 4) & 7];
        f = &fl;
    }
    int ok_in = m && !fz_is_compound(m) && fz_ok_vec(d);
    c2d_cast sc, wc;
    c2d_toi toi;
    int idx = 7;
    memset(&sc, FZ_POISON, sizeof sc);
    memset(&wc, FZ_POISON, sizeof wc);
    memset(&toi, FZ_POISON, sizeof toi);
    FZ_CHECK(c2d_static_set_cast(st->set, m, d, NULL) == C2D_ERR_NULL && c2d_world_cast(st->world, m, d, f, NULL) == C2D_ERR_NULL,
             "a cast to NULL accepted");
    c2d_status s1 = c2d_static_set_cast(st->set, m, d, &sc);
    c2d_status s2 = c2d_static_set_sweep(st->set, m, d, &toi, &idx);
    fz_check_status(s1);
    FZ_CHECK(s1 == s2, "set cast gave %d, set sweep %d", (int)s1, (int)s2);
    if (s1 != C2D_OK) {
        FZ_CHECK(!(st->set && ok_in), "set cast refused %d", (int)s1);
        FZ_CHECK(fz_is_poison(&sc, sizeof sc), "refused set cast wrote");
    } else {
        FZ_CHECK(st->set && ok_in, "bad set cast accepted");
        double scale = fz_set_scale(st, m, d, 1);
        if (toi.state == C2D_TOI_NONE) {
            FZ_CHECK(sc.state == C2D_CAST_NONE && idx == -1, "set cast %d where the sweep met nothing (index %d)",
                     (int)sc.state, idx);
            fz_check_cast_none(&sc, m, d, "set cast");
        } else {
            FZ_CHECK(sc.state == (toi.state == C2D_TOI_OVERLAP ? C2D_CAST_INSIDE : C2D_CAST_HIT) && sc.index == idx &&
                         idx >= 0 && idx < st->set_n && sc.id == 0 && sc.user == st->set_user[idx] &&
                         fz_same_bits(sc.t, toi.t) && fz_same_bits(sc.depth, toi.depth) &&
                         fz_same_bits(sc.point.x, toi.point.x) && fz_same_bits(sc.point.y, toi.point.y) &&
                         fz_same_bits(sc.normal.x, -toi.normal.x) && fz_same_bits(sc.normal.y, -toi.normal.y),
                     "set cast (state %d t %.17g index %d normal (%.17g, %.17g)) is not the sweep (state %d t %.17g "
                     "index %d normal (%.17g, %.17g)) in the containers' convention",
                     (int)sc.state, sc.t, sc.index, sc.normal.x, sc.normal.y, (int)toi.state, toi.t, idx, toi.normal.x,
                     toi.normal.y);
            fz_check_cast_met(&sc, m, d, fz_member_moves(st, idx) ? NULL : st->set_shape[idx], fz_v(0, 0),
                              fz_member_one_way(st, idx), scale, "set cast");
        }
    }
    c2d_status s3 = c2d_world_cast(st->world, m, d, f, &wc);
    fz_check_status(s3);
    if (s3 != C2D_OK) {
        FZ_CHECK(!(st->world && ok_in), "world cast refused %d", (int)s3);
        FZ_CHECK(fz_is_poison(&wc, sizeof wc), "refused world cast wrote");
        return;
    }
    FZ_CHECK(st->world && ok_in, "bad world cast accepted");
    if (fz_trace)
        fprintf(stderr, " -> world cast state %d t %.17g index %d id %llu", (int)wc.state, wc.t, wc.index,
                (unsigned long long)wc.id);
    int empty = fz_world_empty(st);
    if (empty && st->level) {
        FZ_CHECK(s1 == C2D_OK && memcmp(&wc, &sc, sizeof wc) == 0,
                 "through a level with no entries the world cast (state %d t %.17g index %d) is not the set's (state %d "
                 "t %.17g index %d)",
                 (int)wc.state, wc.t, wc.index, (int)sc.state, sc.t, sc.index);
        return;
    }
    if (wc.state == C2D_CAST_NONE) {
        fz_check_cast_none(&wc, m, d, "world cast");
        return;
    }
    FZ_CHECK(!(empty && !st->level), "a world cast with no entries and no level met something (state %d)",
             (int)wc.state);
    double scale = fmax(fz_shape_scale(m), fz_vec_mag(d));
    if (st->level)
        scale = fmax(scale, fz_set_scale(st, m, d, 1));
    const c2d_shape *met = NULL;
    c2d_vec2 mv = fz_v(0, 0);
    int by_parts = 0;
    if (wc.id == 0) {
        FZ_CHECK(fz_level_contact_ok(st, wc.index, wc.user), "world cast names id 0 but no level shape (index %d)",
                 wc.index);
        if (!fz_member_moves(st, wc.index))
            met = st->set_shape[wc.index];
        by_parts = fz_member_one_way(st, wc.index);
    } else {
        int k = fz_entry_of(st, wc.id);
        FZ_CHECK(k >= 0 && st->ent[k].user == wc.user && wc.index == -1 && !st->ent[k].off &&
                     fz_bits_pass(f, st->ent[k].cat, st->ent[k].mask),
                 "world cast names id %llu (index %d), no live enabled entry passing the filter",
                 (unsigned long long)wc.id, wc.index);
        met = st->ent[k].shape;
        mv = st->ent[k].vel; /* a cast sweeps an entry's velocity over one unit of time, as a move */
        by_parts = st->ent[k].os || st->ent[k].ow.x != 0 || st->ent[k].ow.y != 0;
    }
    for (int k = 0; k < st->n_ent; k++)
        if (st->ent[k].live)
            scale = fmax(scale, fz_shape_scale(st->ent[k].shape) + fz_vec_mag(st->ent[k].vel));
    fz_check_cast_met(&wc, m, d, met, mv, by_parts, scale, "world cast");
}

/* op world_push_out: c2d_world_push_out (filter and callbacks as the queries'). Bad input writes
 * nothing; the answer is finite; the mover moved by it is inside no solid entry it could have
 * considered (passing the filter, accepted by the callback, not one-way) nor any solid enabled shape of
 * the level deeper than touching; it is zero when the mover starts clear of all of them; through a
 * level with no entries it is the set's push-out, bit for bit. */
void op_world_push_out(fz_state *st)
{
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_world_filter fl;
    fz_query_ctx q;
    const c2d_world_filter *f = fz_filter(st, &fl, &q);
    c2d_vec2 p;
    memset(&p, FZ_POISON, sizeof p);
    int empty = fz_world_empty(st);
    FZ_CHECK(c2d_world_push_out(st->world, m, NULL, NULL) == C2D_ERR_NULL, "world push_out to NULL accepted");
    c2d_status s = c2d_world_push_out(st->world, m, f, &p);
    fz_check_status(s);
    if (!st->world || !m || fz_is_compound(m)) {
        FZ_CHECK(s == (!st->world || !m ? C2D_ERR_NULL : C2D_ERR_NOT_CONVEX) && fz_is_poison(&p, sizeof p),
                 "bad world push_out gave %d or wrote", (int)s);
        fz_bury(st);
        return;
    }
    FZ_CHECK(s == C2D_OK || s == C2D_ERR_NO_MEMORY, "world push_out gave %d", (int)s);
    if (s != C2D_OK || (f && f->accept && (q.mode & 1))) {
        fz_bury(st); /* entries removed by the callback: what it saw is not known for sure */
        return;
    }
    FZ_CHECK(fz_finite_vec(p), "world push_out (%g, %g)", p.x, p.y);
    if (fz_trace)
        fprintf(stderr, " -> (%.17g, %.17g)", p.x, p.y);
    if (st->level && empty) {
        c2d_vec2 p2;
        FZ_CHECK(c2d_static_set_push_out(st->set, m, &p2) == C2D_OK && fz_same_bits(p.x, p2.x) && fz_same_bits(p.y, p2.y),
                 "through a level with no entries the world pushes out by (%.17g, %.17g), the set by (%.17g, %.17g)", p.x,
                 p.y, p2.x, p2.y);
    }
    double scale = fmax(fz_shape_scale(m), fz_vec_mag(p));
    for (int k = 0; k < st->n_ent; k++)
        if (st->ent[k].live)
            scale = fmax(scale, fz_shape_scale(st->ent[k].shape));
    if (st->level)
        scale = fmax(scale, fz_set_scale(st, m, p, 0));
    double tol = FZ_REL_TOL * 4 * (1 + scale);
    double clear0 = INFINITY, clear1 = INFINITY;
    int which0 = -1, which1 = -1, level1 = 0;
    c2d_shape *moved = fz_moved(m, p, 1);
    for (int k = 0; k < st->n_ent; k++) {
        const fz_entry *e = &st->ent[k];
        if (!fz_entry_seen(e) || !fz_bits_pass(f, e->cat, e->mask) || (f && f->accept && !(q.called[k] && q.said[k])))
            continue;
        if (e->ow.x != 0 || e->ow.y != 0 || e->os)
            continue; /* one-way: push-outs ignore them */
        c2d_distance_result r;
        if (c2d_distance(m, e->shape, &r) == C2D_OK && r.distance < clear0) {
            clear0 = r.distance;
            which0 = k;
        }
        if (moved && c2d_distance(moved, e->shape, &r) == C2D_OK && r.distance < clear1) {
            clear1 = r.distance;
            which1 = k;
        }
    }
    if (st->level) {
        int w;
        double d0 = fz_set_clearance(st, m, p, 0, 0, NULL, &w);
        if (d0 < clear0) {
            clear0 = d0;
            which0 = w;
        }
        double d1 = fz_set_clearance(st, m, p, 1, 0, NULL, &w);
        if (d1 < clear1) {
            clear1 = d1;
            which1 = w;
            level1 = 1;
        }
    }
    c2d_shape_destroy(moved);
    if (clear0 > tol)
        FZ_CHECK(p.x == 0 && p.y == 0, "world push_out (%.17g, %.17g) for a mover %.17g clear of everything (near %d)",
                 p.x, p.y, clear0, which0);
    FZ_CHECK(!(clear1 < -tol), "pushed out of the world by (%.17g, %.17g), the mover is still %.17g inside %s %d (tol %g)",
             p.x, p.y, -clear1, level1 ? "level shape" : "entry", which1, tol);
    fz_bury(st);
}

/* op timed: one of the four _timed_report moves (set or world, plain or turning), with dt 1, a fuzzed
 * number, 0, -0, NaN or -1. The untimed _report call is made too: dt 1 gives its answer bit for bit
 * (status, result, angle turned, every record); what it refuses the timed call refuses; dt <= 0 or NaN
 * is refused (C2D_ERR_RANGE for a finite dt when the untimed call is accepted); a refused call writes
 * nothing and reports nothing; accepted, the report is called once with result->count records, and a
 * move that met nothing ends where its displacement takes it (to rounding). */
void op_timed(fz_state *st)
{
    uint8_t kind = fz_byte(st);
    int world = (kind & 2) != 0, turning = kind & 1;
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_vec2 d = fz_v(0, 0);
    c2d_motion mo;
    const c2d_motion *mp = NULL;
    if (turning)
        mp = fz_motion(st, m, &mo);
    else
        d = fz_vec(st);
    uint8_t dm = fz_byte(st);
    double dt;
    switch (dm & 7) {
    case 3:
        dt = fz_number(st);
        break;
    case 4:
        dt = 0;
        break;
    case 5:
        dt = -0.0;
        break;
    case 6:
        dt = NAN;
        break;
    case 7:
        dt = -1;
        break;
    default:
        dt = 1;
        break;
    }
    c2d_move_options o;
    c2d_response arr[FZ_SET_MAX], resp[FZ_SET_MAX];
    int opt_ok;
    const c2d_move_options *op = fz_move_options(st, &o, arr, st->set_n, C2D_RESPONSE_SLIDE, resp, &opt_ok);
    (void)opt_ok;
    c2d_move_result res, res2;
    double turned, turned2;
    fz_report_ctx r1, r2;
    memset(&res, FZ_POISON, sizeof res);
    memset(&res2, FZ_POISON, sizeof res2);
    memset(&turned, FZ_POISON, sizeof turned);
    memset(&turned2, FZ_POISON, sizeof turned2);
    fz_report_start(&r1, fz_rec);
    fz_report_start(&r2, fz_rec_short);
    c2d_status s, s2;
    if (world) {
        fz_world_snap before, after;
        fz_world_snapshot(st, &before);
        s = turning ? c2d_world_move_turning_timed_report(st->world, m, mp, dt, NULL, NULL, NULL, op, &res, &turned,
                                                          fz_report, &r1)
                    : c2d_world_move_timed_report(st->world, m, d, dt, NULL, NULL, NULL, op, &res, fz_report, &r1);
        s2 = turning ? c2d_world_move_turning_report(st->world, m, mp, NULL, NULL, NULL, op, &res2, &turned2, fz_report,
                                                     &r2)
                     : c2d_world_move_report(st->world, m, d, NULL, NULL, NULL, op, &res2, fz_report, &r2);
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a timed world move changed the world");
    } else {
        s = turning ? c2d_static_set_move_turning_timed_report(st->set, m, mp, dt, op, &res, &turned, fz_report, &r1)
                    : c2d_static_set_move_timed_report(st->set, m, d, dt, op, &res, fz_report, &r1);
        s2 = turning ? c2d_static_set_move_turning_report(st->set, m, mp, op, &res2, &turned2, fz_report, &r2)
                     : c2d_static_set_move_report(st->set, m, d, op, &res2, fz_report, &r2);
    }
    fz_check_status(s);
    fz_check_status(s2);
    const char *what = world ? (turning ? "world turning move" : "world move") : (turning ? "set turning move" : "set move");
    if (fz_trace)
        fprintf(stderr, " -> %s dt %.17g: %d (untimed %d)", what, dt, (int)s, (int)s2);
    if (s2 != C2D_OK)
        FZ_CHECK(fz_is_poison(&res2, sizeof res2) && fz_is_poison(&turned2, sizeof turned2) && r2.calls == 0,
                 "refused untimed %s wrote or reported", what);
    if (s != C2D_OK) {
        FZ_CHECK(fz_is_poison(&res, sizeof res) && fz_is_poison(&turned, sizeof turned) && r1.calls == 0,
                 "refused timed %s (%d, dt %.17g) wrote or reported", what, (int)s, dt);
    }
    if (dt == 1) {
        FZ_CHECK(s == s2, "timed %s with dt 1 gave %d, the untimed call %d", what, (int)s, (int)s2);
        if (s != C2D_OK)
            return;
        FZ_CHECK(fz_result_same(&res, &res2) && (!turning || fz_same_bits(turned, turned2)) && r1.calls == 1 &&
                     r2.calls == 1 && r1.count == r2.count,
                 "timed %s with dt 1 moved (%.17g, %.17g) count %d, the untimed call (%.17g, %.17g) count %d", what,
                 res.displacement.x, res.displacement.y, res.count, res2.displacement.x, res2.displacement.y, res2.count);
        for (int i = 0; i < r1.count && i < FZ_REC_MAX; i++)
            FZ_CHECK(fz_record_same(&fz_rec[i], &fz_rec_short[i]), "timed %s with dt 1: record %d differs", what, i);
        return;
    }
    if (s2 != C2D_OK) {
        FZ_CHECK(s != C2D_OK, "timed %s (dt %.17g) accepted what the untimed call refused with %d", what, dt, (int)s2);
        return;
    }
    if (!(dt > 0)) {
        /* NaN and -inf are not finite (every number the library checks), the rest out of range. */
        FZ_CHECK(s == (isfinite(dt) ? C2D_ERR_RANGE : C2D_ERR_NOT_FINITE) || (isnan(dt) && s == C2D_ERR_RANGE),
                 "timed %s with dt %.17g gave %d", what, dt, (int)s);
        return;
    }
    if (s != C2D_OK) {
        /* Accepted untimed: only a dt that makes a velocity too large (or infinite) is refused. */
        FZ_CHECK(s == C2D_ERR_RANGE || s == C2D_ERR_NOT_FINITE || s == C2D_ERR_NO_MEMORY,
                 "timed %s with dt %.17g gave %d", what, dt, (int)s);
        return;
    }
    fz_check_move_result(&res);
    FZ_CHECK(r1.calls == 1 && r1.count == res.count, "timed %s reported %d times, %d records of %d", what, r1.calls,
             r1.count, res.count);
    if (turning)
        FZ_CHECK(isfinite(turned), "timed %s turned %g", what, turned);
    double last = 0;
    for (int i = 0; i < res.count && i < FZ_REC_MAX; i++) {
        FZ_CHECK(fz_rec[i].contact.t >= last && fz_rec[i].contact.t <= 1, "timed %s record %d at t %.17g", what, i,
                 fz_rec[i].contact.t);
        last = fz_rec[i].contact.t;
    }
    if (!turning && res.count == 0) {
        double scale = fmax(fz_shape_scale(m), fz_vec_mag(d));
        double tol = FZ_REL_TOL * 4 * (1 + scale);
        FZ_CHECK(fz_len(fz_sub(res.displacement, d)) <= tol,
                 "timed %s (dt %.17g) met nothing but moved (%.17g, %.17g) of (%.17g, %.17g)", what, dt,
                 res.displacement.x, res.displacement.y, d.x, d.y);
    }
}
