/* ops_world_move.c - world moves and ball steps (op 37), with response callbacks and their records,
 * checked like the static set's; and a world entry's one-way direction (op 43). */
#include "fz.h"

/* World moves and ball steps: the response callback picks per entry; checked like the static set's. */
typedef struct fz_respond_ctx {
    fz_state *st;
    uint8_t salt;
    int remove;
} fz_respond_ctx;

static c2d_response fz_respond(void *ctx, c2d_world_id id, uintptr_t user)
{
    fz_respond_ctx *rc = (fz_respond_ctx *)ctx;
    int k = fz_entry_of(rc->st, id);
    FZ_CHECK(k >= 0 && rc->st->ent[k].user == user && !rc->st->ent[k].off,
             "respond called for id %llu, not a live enabled entry", (unsigned long long)id);
    if (rc->remove && rc->salt % 3 == 0)
        fz_entry_remove(rc->st, k);
    return (c2d_response)((user + rc->salt) % 5);
}

/* The response a world move applies to entry e (NONE: ignored). */
static c2d_response fz_world_response(const fz_respond_ctx *rc, int use_respond, const c2d_move_options *o,
                                      c2d_response dflt, const fz_entry *e)
{
    if (use_respond)
        return (c2d_response)((e->user + rc->salt) % 5);
    return o && o->response != C2D_RESPONSE_NONE ? o->response : dflt;
}

/* Smallest distance from s (moved by d) to the live entries passing the filter bits whose response
 * stops the mover (the callback answers are not known here, so entries it saw are checked only when
 * it accepted them; others were never considered). Disabled entries are no shapes of the world for a
 * move; entries with a velocity are left out (they go on moving to the end of the call, so a mover
 * stopped early may be crushed by one, as by a set's moving member). */
static double fz_world_clearance(fz_state *st, const c2d_shape *s, c2d_vec2 d, const c2d_world_filter *f,
                                 const fz_query_ctx *q, const fz_respond_ctx *rc, int use_respond,
                                 const c2d_move_options *o, c2d_response dflt, const c2d_shape *skip, int *which)
{
    double best = INFINITY;
    *which = -1;
    c2d_shape *m = fz_moved(s, d, 1);
    if (!m)
        return NAN;
    for (int k = 0; k < st->n_ent; k++) {
        const fz_entry *e = &st->ent[k];
        if (!fz_entry_seen(e) || fz_entry_moves(e) || e->shape == skip || !fz_bits_pass(f, e->cat, e->mask))
            continue;
        if (f && f->accept && !(q->called[k] && q->said[k]))
            continue;
        if (e->ow.x != 0 || e->ow.y != 0 || e->os)
            continue; /* one-way (or a one-sided chain): a mover may end inside it (passing through from below or a side) */
        c2d_response resp = fz_world_response(rc, use_respond, o, dflt, e);
        if (resp == C2D_RESPONSE_NONE || resp == C2D_RESPONSE_CROSS)
            continue;
        c2d_distance_result r;
        if (c2d_distance(m, e->shape, &r) == C2D_OK && r.distance < best) {
            best = r.distance;
            *which = k;
        }
    }
    c2d_shape_destroy(m);
    return best;
}

static void fz_check_world_contacts(fz_state *st, const c2d_world_contact *c, int cap, int count)
{
    int written = count < cap ? count : cap;
    double last = 0;
    for (int k = 0; k < written; k++) {
        /* id 0 names a shape of the world's level, by its index and value there (op world_level). */
        FZ_CHECK(c[k].id != 0 || fz_level_contact_ok(st, c[k].contact.index, c[k].user),
                 "world contact %d has id 0 (index %d user %llu) but %s", k, c[k].contact.index,
                 (unsigned long long)c[k].user, st->level ? "names no shape of the level" : "the world has no level");
        FZ_CHECK(isfinite(c[k].contact.t) && c[k].contact.t >= 0 && c[k].contact.t <= 1 && c[k].contact.t >= last,
                 "world contact %d at t %.17g", k, c[k].contact.t);
        /* A disabled entry is never met (a removed one may be: a callback removed it after). */
        int e = c[k].id != 0 ? fz_entry_of(st, c[k].id) : -1;
        FZ_CHECK(e < 0 || !st->ent[e].off, "world contact %d names disabled entry %d", k, e);
        last = c[k].contact.t;
        fz_check_unit(c[k].contact.normal, "world contact normal");
        FZ_CHECK((int)c[k].contact.response >= 1 && (int)c[k].contact.response <= 4, "world contact response %d",
                 (int)c[k].contact.response);
    }
    FZ_CHECK(fz_is_poison(c + written, (size_t)(16 - written) * sizeof *c), "world contacts written past %d", written);
}

/* A fresh copy of a query filter's context for running the same call again: the accept callback
 * checks that it is asked at most once per entry in one call. */
static const c2d_world_filter *fz_filter_again(const c2d_world_filter *f, const fz_query_ctx *q,
                                               c2d_world_filter *f2, fz_query_ctx *q2)
{
    if (!f)
        return NULL;
    *q2 = *q;
    q2->calls = 0;
    memset(q2->called, 0, sizeof q2->called);
    memset(q2->said, 0, sizeof q2->said);
    *f2 = *f;
    f2->ctx = q2;
    q2->filter = f2;
    return f2;
}

/* The _records forms of a world move or ball step against the plain call just made (result res, ball
 * b1, contacts c[0 .. min(count, usecap))), as fz_check_set_records does for a set: the plain call
 * again with room for every contact, the records call with that room, and the records call short of
 * room, each with fresh callback contexts (the callbacks answer the same for the same entry, and are
 * only used here when they change nothing). Record i holds plain contact i's contact, and its entry's
 * id and user value, which are those of a live entry. */
static void fz_check_world_records(fz_state *st, int ball_step, const c2d_shape *m, c2d_vec2 d, const c2d_ball *b0,
                                   const c2d_ball *b1, double dt, const c2d_world_filter *f, const fz_query_ctx *q,
                                   c2d_world_response_fn respond, const fz_respond_ctx *rc,
                                   const c2d_move_options *op, const c2d_move_result *res, const c2d_world_contact *c,
                                   int usecap)
{
    const char *what = ball_step ? "world ball step" : "world move";
    c2d_world_filter f2;
    fz_query_ctx q2;
    fz_respond_ctx rc2;
    c2d_move_result r1, r2, r3;
    c2d_ball bb;
    double s = fmax(ball_step ? fz_vec_mag(b1->position) + b1->radius : fz_shape_scale(m),
                    fz_vec_mag(res->displacement) + fz_vec_mag(d));
    for (int k = 0; k < st->n_ent; k++)
        if (st->ent[k].live)
            s = fmax(s, fz_shape_scale(st->ent[k].shape) + fz_vec_mag(st->ent[k].vel) * dt);
    if (ball_step)
        s += fz_vec_mag(b0->position) + fz_vec_mag(b0->velocity) * dt;
    if (st->level)
        s = fmax(s, fz_set_scale(st, ball_step ? NULL : m, d, dt));

    rc2 = *rc;
    bb = *b0;
    const c2d_world_filter *fp = fz_filter_again(f, q, &f2, &q2);
    memset(fz_wall, FZ_POISON, sizeof fz_wall);
    c2d_status s1 = ball_step ? c2d_world_step_ball(st->world, &bb, dt, fp, respond, &rc2, op, &r1, fz_wall, FZ_REC_MAX)
                              : c2d_world_move(st->world, m, d, fp, respond, &rc2, op, &r1, fz_wall, FZ_REC_MAX);
    FZ_CHECK(s1 == C2D_OK && fz_result_same(&r1, res) && (!ball_step || memcmp(&bb, b1, sizeof bb) == 0),
             "the plain %s with room for every contact gave %d and another result", what, (int)s1);
    int written = res->count < usecap ? res->count : usecap, all = res->count < FZ_REC_MAX ? res->count : FZ_REC_MAX;
    for (int i = 0; i < written; i++)
        FZ_CHECK(fz_wall[i].id == c[i].id && fz_wall[i].user == c[i].user &&
                     fz_contact_same(&fz_wall[i].contact, &c[i].contact),
                 "%s contact %d differs with room for every contact", what, i);

    rc2 = *rc;
    bb = *b0;
    fp = fz_filter_again(f, q, &f2, &q2);
    memset(fz_rec, FZ_POISON, sizeof fz_rec);
    memset(&r2, FZ_POISON, sizeof r2);
    c2d_status s2 = ball_step
                        ? c2d_world_step_ball_records(st->world, &bb, dt, fp, respond, &rc2, op, &r2, fz_rec, FZ_REC_MAX)
                        : c2d_world_move_records(st->world, m, d, fp, respond, &rc2, op, &r2, fz_rec, FZ_REC_MAX);
    FZ_CHECK(s2 == C2D_OK && fz_result_same(&r2, res) && (!ball_step || memcmp(&bb, b1, sizeof bb) == 0),
             "the %s with records gave %d and another result than the plain call", what, (int)s2);
    for (int i = 0; i < all; i++) {
        FZ_CHECK(fz_contact_same(&fz_rec[i].contact, &fz_wall[i].contact) && fz_rec[i].id == fz_wall[i].id &&
                     fz_rec[i].user == fz_wall[i].user,
                 "%s record %d (id %llu user %llu) is not plain contact %d (id %llu user %llu)", what, i,
                 (unsigned long long)fz_rec[i].id, (unsigned long long)fz_rec[i].user, i,
                 (unsigned long long)fz_wall[i].id, (unsigned long long)fz_wall[i].user);
        if (fz_rec[i].id == 0) {
            /* A shape of the level: checked as a set's record is, where it stands still. */
            int j = fz_rec[i].contact.index;
            FZ_CHECK(fz_level_contact_ok(st, j, fz_rec[i].user), "%s record %d has id 0 but names no level shape (%d)",
                     what, i, j);
            if (!fz_member_moves(st, j))
                fz_check_record_position(&fz_rec[i], i, ball_step ? NULL : m, ball_step ? b0->radius : 0,
                                         st->set_shape[j], fz_v(0, 0), 0, s, fz_member_one_way(st, j));
            continue;
        }
        int k = fz_entry_of(st, fz_rec[i].id);
        FZ_CHECK(k >= 0 && st->ent[k].user == fz_rec[i].user && !st->ent[k].off,
                 "%s record %d names id %llu user %llu, no live enabled entry", what, i,
                 (unsigned long long)fz_rec[i].id, (unsigned long long)fz_rec[i].user);
        /* An entry with a velocity where it had moved to then (the call sweeps it, not moves it). */
        fz_check_record_position(&fz_rec[i], i, ball_step ? NULL : m, ball_step ? b0->radius : 0, st->ent[k].shape,
                                 st->ent[k].vel, fz_rec[i].contact.t * dt, s,
                                 st->ent[k].os || st->ent[k].ow.x != 0 || st->ent[k].ow.y != 0);
    }
    FZ_CHECK(fz_is_poison(fz_rec + all, (size_t)(FZ_REC_MAX - all) * sizeof fz_rec[0]),
             "%s records written past the count %d", what, all);

    int cap = fz_short_capacity(res->count, usecap + 2);
    c2d_contact_record *out = cap == 0 && (res->count & 1) ? NULL : fz_rec_short;
    rc2 = *rc;
    bb = *b0;
    fp = fz_filter_again(f, q, &f2, &q2);
    memset(fz_rec_short, FZ_POISON, sizeof fz_rec_short);
    memset(&r3, FZ_POISON, sizeof r3);
    c2d_status s3 = ball_step ? c2d_world_step_ball_records(st->world, &bb, dt, fp, respond, &rc2, op, &r3, out, cap)
                              : c2d_world_move_records(st->world, m, d, fp, respond, &rc2, op, &r3, out, cap);
    FZ_CHECK(s3 == C2D_OK && fz_result_same(&r3, res) && (!ball_step || memcmp(&bb, b1, sizeof bb) == 0),
             "the %s with room for %d records gave %d and another result (count %d)", what, cap, (int)s3, r3.count);
    for (int i = 0; i < cap; i++)
        FZ_CHECK(fz_record_same(&fz_rec_short[i], &fz_rec[i]), "%s record %d differs with room for %d", what, i, cap);
    FZ_CHECK(fz_is_poison(fz_rec_short + cap, (size_t)(FZ_REC_MAX - cap) * sizeof fz_rec_short[0]),
             "%s with room for %d records wrote more", what, cap);
}

void op_world_move(fz_state *st)
{
    uint8_t kind = fz_byte(st);
    int ball_step = kind & 1;
    const c2d_shape *m = st->slot[fz_slot(st)];
    if (kind & 2) {
        uint8_t pick = fz_byte(st);
        if (st->n_ent > 0 && st->ent[pick % st->n_ent].live)
            m = st->ent[pick % st->n_ent].shape; /* a shape of the world itself: its entry is skipped */
    }
    c2d_vec2 d = fz_vec(st);
    c2d_ball b;
    double dt = 1;
    if (ball_step) {
        b = fz_ball(st);
        dt = fz_number(st);
    }
    c2d_world_filter fl;
    fz_query_ctx q;
    const c2d_world_filter *f = fz_filter(st, &fl, &q);
    fz_respond_ctx rc;
    rc.st = st;
    rc.salt = fz_byte(st);
    rc.remove = (kind & 4) != 0;
    int use_respond = (kind & 8) != 0;
    c2d_move_options o;
    c2d_response arr[FZ_SET_MAX], resp[FZ_SET_MAX];
    int opt_ok;
    c2d_response dflt = ball_step ? C2D_RESPONSE_BOUNCE : C2D_RESPONSE_SLIDE;
    const c2d_move_options *op = fz_move_options(st, &o, arr, FZ_SET_MAX, dflt, resp, &opt_ok);
    if (op && op->responses)
        opt_ok = st->level && fz_level_options_ok(op, st->set_n); /* per-shape arrays are the level's shapes' */
    int cap = (int)(fz_byte(st) % 19) - 2;
    int usecap = cap > 16 ? 16 : cap;
    c2d_world_contact c[16];
    c2d_move_result res;
    memset(c, FZ_POISON, sizeof c);
    memset(&res, FZ_POISON, sizeof res);
    c2d_ball b0;
    memset(&b0, 0, sizeof b0);
    if (ball_step)
        b0 = b;
    fz_world_snap before;
    fz_world_snapshot(st, &before);
    c2d_status r = ball_step ? c2d_world_step_ball(st->world, &b, dt, f, use_respond ? fz_respond : NULL, &rc, op,
                                                   &res, c, usecap)
                             : c2d_world_move(st->world, m, d, f, use_respond ? fz_respond : NULL, &rc, op, &res, c,
                                              usecap);
    fz_check_status(r);
    if (fz_trace && r == C2D_OK) {
        fprintf(stderr, " -> moved (%.17g, %.17g) count %d%s%s filter %d", res.displacement.x, res.displacement.y,
                res.count, use_respond ? " respond" : "", rc.remove ? " removing" : "", f != NULL);
        if (!ball_step && m)
            fz_dump_shape("\nworld mover", 0, m);
    }
    int ok = st->world && usecap >= 0 && opt_ok && (ball_step ? fz_ball_ok(&b0, dt) : (m && fz_ok_vec(d)));
    /* A chain or concave polygon is no mover: C2D_ERR_NOT_CONVEX when nothing else is wrong. */
    int compound = !ball_step && m && fz_is_compound(m);
    if (ok && compound)
        FZ_CHECK(r == C2D_ERR_NOT_CONVEX, "world move of a compound mover gave %d", (int)r);
    ok = ok && !compound;
    if (!ok) {
        FZ_CHECK(r != C2D_OK, "bad world %s accepted", ball_step ? "ball step" : "move");
        FZ_CHECK(fz_is_poison(&res, sizeof res) && fz_is_poison(c, sizeof c), "world move wrote on error");
        if (ball_step)
            FZ_CHECK(memcmp(&b, &b0, sizeof b) == 0, "rejected world ball step changed the ball");
        if (!rc.remove && q.calls == 0) {
            fz_world_snap after;
            fz_world_snapshot(st, &after);
            FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected world move changed the world");
            /* Refused before any callback ran: the records form refuses it too, writing nothing. */
            c2d_world_filter f2;
            fz_query_ctx q2;
            fz_respond_ctx rc2 = rc;
            const c2d_world_filter *fp = fz_filter_again(f, &q, &f2, &q2);
            memset(fz_rec, FZ_POISON, sizeof fz_rec);
            c2d_status r2 = ball_step ? c2d_world_step_ball_records(st->world, &b, dt, fp, use_respond ? fz_respond : NULL,
                                                                    &rc2, op, &res, fz_rec, usecap)
                                      : c2d_world_move_records(st->world, m, d, fp, use_respond ? fz_respond : NULL,
                                                               &rc2, op, &res, fz_rec, usecap);
            FZ_CHECK(r2 == r && (!ball_step || memcmp(&b, &b0, sizeof b) == 0) && fz_is_poison(&res, sizeof res) &&
                         fz_is_poison(fz_rec, sizeof fz_rec),
                     "world %s records gave %d where the plain call gave %d, or wrote on error",
                     ball_step ? "ball step" : "move", (int)r2, (int)r);
        }
        fz_bury(st);
        return;
    }
    FZ_CHECK(r == C2D_OK, "world %s rejected with %d", ball_step ? "ball step" : "move", (int)r);
    fz_check_move_result(&res);
    fz_check_world_contacts(st, c, usecap, res.count);
    /* One-way entries, as for a set's one-way members (fz_check_one_way_contacts). */
    for (int k = 0; k < res.count && k < usecap; k++) {
        int e = fz_entry_of(st, c[k].id);
        if (e >= 0 && st->ent[e].os && st->ent[e].ow.x == 0 && st->ent[e].ow.y == 0) {
            /* A one-sided chain entry: its segments block from their right (as in a set). */
            double tm = c[k].contact.t * dt;
            c2d_vec2 shift = fz_v(st->ent[e].vel.x * tm, st->ent[e].vel.y * tm);
            double sc = fz_shape_scale(st->ent[e].shape) + fz_vec_mag(c[k].contact.point) + fz_vec_mag(shift);
            FZ_CHECK(!c[k].contact.pushed_out, "world contact %d: pushed out of one-sided chain entry %d", k, e);
            if (c[k].contact.response != C2D_RESPONSE_CROSS)
                FZ_CHECK(fz_chain_side_ok(st->ent[e].shape, shift, c[k].contact.point, c[k].contact.normal,
                                          FZ_REL_TOL * 4 * (1 + sc)),
                         "world contact %d with one-sided chain entry %d from the left of its segments at (%.17g, %.17g), "
                         "normal (%.17g, %.17g)",
                         k, e, c[k].contact.point.x, c[k].contact.point.y, c[k].contact.normal.x, c[k].contact.normal.y);
            continue;
        }
        if (e < 0 || (st->ent[e].ow.x == 0 && st->ent[e].ow.y == 0))
            continue;
        c2d_vec2 u = st->ent[e].ow;
        FZ_CHECK(!c[k].contact.pushed_out, "world contact %d: pushed out of one-way entry %d", k, e);
        if (c[k].contact.response != C2D_RESPONSE_CROSS)
            FZ_CHECK(c[k].contact.normal.x * u.x + c[k].contact.normal.y * u.y > 0,
                     "world contact %d with one-way entry %d (direction (%.17g, %.17g)) from the side, normal (%.17g, %.17g)",
                     k, e, u.x, u.y, c[k].contact.normal.x, c[k].contact.normal.y);
    }
    /* Contacts with one-way shapes of the level, as for a set's. */
    if (st->level) {
        c2d_sweep_contact lc[16];
        int nl = 0;
        for (int k = 0; k < res.count && k < usecap; k++)
            if (c[k].id == 0)
                lc[nl++] = c[k].contact;
        fz_check_one_way_contacts(st, lc, nl, dt, fz_set_scale(st, ball_step ? NULL : m, d, dt));
    }
    /* Never ends inside an entry that stops it. With a removing callback the entries it saw are not
     * known for sure, so only without one. With a level, its seam tolerance applies to the entries
     * too: unless it is as large as the mover (as for set_move). */
    double mover_size = ball_step ? 2 * b0.radius : 0;
    if (!ball_step && m) {
        c2d_aabb mb;
        c2d_shape_get_aabb(m, &mb);
        mover_size = fmin(mb.max.x - mb.min.x, mb.max.y - mb.min.y);
    }
    if (!rc.remove && !(f && f->accept && (q.mode & 1)) && !(st->level && st->set_seam_tol >= mover_size)) {
        c2d_shape *mover = NULL;
        const c2d_shape *skip = NULL;
        c2d_vec2 disp = res.displacement;
        if (ball_step) {
            if (c2d_circle_new(b.position.x, b.position.y, b.radius, &mover) != C2D_OK)
                mover = NULL;
            disp = fz_v(0, 0);
        } else {
            c2d_shape_clone(m, &mover);
            skip = m;
        }
        if (mover) {
            double s = fmax(fz_shape_scale(mover), fz_vec_mag(disp) + fz_vec_mag(d));
            for (int k = 0; k < st->n_ent; k++)
                if (st->ent[k].live)
                    s = fmax(s, fz_shape_scale(st->ent[k].shape) + fz_vec_mag(st->ent[k].vel) * dt);
            if (ball_step)
                s += fz_vec_mag(b0.position) + fz_vec_mag(b0.velocity) * dt;
            if (st->level)
                s = fmax(s, fz_set_scale(st, mover, disp, dt));
            double tol = FZ_REL_TOL * 4 * (1 + s);
            int w;
            double d1 = fz_world_clearance(st, mover, disp, f, &q, &rc, use_respond, op, dflt, skip, &w);
            FZ_CHECK(!(d1 < -tol), "the world %s ends %.17g inside entry %d (tol %g)",
                     ball_step ? "ball" : "mover", d1, w, tol);
            /* And no solid shape of the level, where none of them moves (a moving one may crush a
             * mover stopped early: see fz_end_time). */
            if (st->level && fz_set_max_speed(st) == 0) {
                double d2 = fz_set_clearance(st, mover, disp, 1, 0, resp, &w);
                FZ_CHECK(!(d2 < -tol), "the world %s ends %.17g inside level shape %d (response %d, tol %g)",
                         ball_step ? "ball" : "mover", d2, w, w >= 0 ? (int)resp[w] : -1, tol);
            }
            c2d_shape_destroy(mover);
        }
    }
    /* The records forms, when running the call again sees the same world: not after a callback that
     * removes entries (the model may no longer say which answered what, and the world changed). */
    if (!rc.remove && !(f && f->accept && (q.mode & 1)))
        fz_check_world_records(st, ball_step, m, d, &b0, &b, dt, f, &q, use_respond ? fz_respond : NULL, &rc, op,
                               &res, c, usecap);
    fz_bury(st);
}

/* c2d_world_set_one_way on a live, removed or made-up id (anything, zero, -0, or along y): the
 * header's status, nothing changed on error; accepted, get_one_way gives the direction's unit vector
 * (zero for zero), which the model keeps; moves and ball steps then leave the entry out of their
 * never-inside checks. */
void op_world_one_way(fz_state *st)
{
    c2d_world_id id;
    int k = fz_entry_pick(st, &id);
    uint8_t mode = fz_byte(st);
    c2d_vec2 v;
    switch (mode & 3) {
    case 0:
        v = fz_vec(st);
        break;
    case 1:
        v = fz_v(0, fz_number(st));
        break;
    case 2:
        v = fz_v(0, 0);
        break;
    default:
        v = fz_v(-0.0, -0.0);
        break;
    }
    if (st->world && (k < 0 || !st->ent[k].live))
        k = fz_entry_of(st, id); /* a made-up or reused id may be that of a live entry */
    int live = st->world && k >= 0 && st->ent[k].live;
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status s = c2d_world_set_one_way(st->world, id, v);
    fz_check_status(s);
    c2d_status want = !st->world ? C2D_ERR_NULL : !live ? C2D_ERR_RANGE : fz_vec_status(v);
    c2d_vec2 got;
    memset(&got, FZ_POISON, sizeof got);
    FZ_CHECK(c2d_world_get_one_way(st->world, id, NULL) == C2D_ERR_NULL, "get_one_way to NULL accepted");
    if (want != C2D_OK || s == C2D_ERR_NO_MEMORY) {
        FZ_CHECK(s == want || s == C2D_ERR_NO_MEMORY, "world set_one_way of id %llu (%.17g, %.17g) gave %d, not %d",
                 (unsigned long long)id, v.x, v.y, (int)s, (int)want);
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected world set_one_way changed the world");
        if (!live)
            FZ_CHECK(c2d_world_get_one_way(st->world, id, &got) == (st->world ? C2D_ERR_RANGE : C2D_ERR_NULL) &&
                         fz_is_poison(&got, sizeof got),
                     "get_one_way of id %llu, not live, answered or wrote", (unsigned long long)id);
        return;
    }
    FZ_CHECK(s == C2D_OK, "world set_one_way rejected with %d", (int)s);
    FZ_CHECK(c2d_world_get_one_way(st->world, id, &got) == C2D_OK, "world get_one_way failed");
    fz_check_one_way_dir(v, got, "world set_one_way");
    st->ent[k].ow = got;
    fz_world_snapshot(st, &after);
}
