/* ops_character.c - the character mover (op 59: c2d_static_set_move_character; op 60:
 * c2d_world_move_character), with fuzzed options (up, max_slope, snap_distance, step_height,
 * drop_through) and states (grounded or not, on a member, out of range, not finite), or the state the
 * last accepted call left (so the fuzzer can walk a character call after call, the slot's shape moved
 * where the call took it).
 *
 * Refused input (each refusal names one of the input's faults) writes nothing to the state or the
 * result and reports nothing. Accepted: the result and state are finite; the state is grounded on an
 * enabled shape of the set (or a live enabled entry, or a shape of the world's level) with its unit
 * normal, velocity and value, or on nothing with the rest zero; the flags say what the state does
 * (LANDED exactly when grounded now and not before, SNAPPED exactly when the snap is not zero, ground
 * too steep only with STEEP); every record names a shape it could meet; the call is the same without
 * a report; and the character ends inside no solid shape (push-out length within the harness's usual
 * tolerance of the scene), as every move op checks. Through a world with no entry and the set as its
 * level, an accepted set call is the world's answer bit for bit (state, result, every record). */
#include "fz.h"

/* Records a report received (a character makes several slide runs, each up to 257 contacts). */
#define FZ_CH_RECS 2048
static c2d_contact_record fz_ch_rec[FZ_CH_RECS], fz_ch_rec2[FZ_CH_RECS];

typedef struct fz_ch_report {
    int calls, count;
    c2d_contact_record *buf;
} fz_ch_report;

static c2d_status fz_ch_keep(void *ctx, const c2d_contact_record *r, int n)
{
    fz_ch_report *rc = (fz_ch_report *)ctx;
    rc->calls++;
    rc->count = n;
    FZ_CHECK(n >= 0 && (n == 0 || r), "character report handed %d records at %p", n, (const void *)r);
    memcpy(rc->buf, r, (size_t)(n < FZ_CH_RECS ? n : FZ_CH_RECS) * sizeof *r);
    return C2D_OK;
}

static void fz_ch_start(fz_ch_report *rc, c2d_contact_record *buf)
{
    rc->calls = 0;
    rc->count = -1;
    rc->buf = buf;
}

/* Options from the input: NULL (the defaults), or the defaults with some fields fuzzed. */
static const c2d_character_options *fz_ch_options(fz_state *st, c2d_character_options *o)
{
    uint8_t m = fz_byte(st);
    *o = c2d_character_options_default();
    if (!(m & 1))
        return NULL;
    switch ((m >> 1) & 3) {
    case 0:
        break; /* (0, 1) */
    case 1:
        o->up = fz_v(0, -1); /* a y-down screen */
        break;
    case 2:
        o->up = fz_v(1, 1);
        break;
    default:
        o->up = fz_vec(st);
        break;
    }
    if (m & 8)
        o->max_slope = fz_number(st);
    if (m & 0x10)
        o->snap_distance = (m & 0x80) ? 0.5 : fz_number(st);
    if (m & 0x20)
        o->step_height = (m & 0x80) ? 0.5 : fz_number(st);
    o->drop_through = (m & 0x40) != 0;
    return o;
}

/* The faults of a character call's numbers (as a mask of the statuses each names, 1 << status). */
static unsigned fz_ch_faults(c2d_vec2 d, const c2d_character_options *o, c2d_vec2 normal, c2d_vec2 velocity)
{
    unsigned f = 0;
    c2d_status s[] = {fz_vec_status(d), fz_vec_status(o->up), fz_number_status(o->max_slope),
                      fz_number_status(o->snap_distance), fz_number_status(o->step_height), fz_vec_status(normal),
                      fz_vec_status(velocity)};
    for (int i = 0; i < (int)(sizeof s / sizeof s[0]); i++)
        if (s[i] != C2D_OK)
            f |= 1u << (unsigned)s[i];
    if (f)
        return f;
    if (o->up.x == 0 && o->up.y == 0)
        f |= 1u << C2D_ERR_DEGENERATE;
    if (!(o->max_slope >= 0 && o->max_slope < 1.5707963267948966) || o->snap_distance < 0 || o->step_height < 0)
        f |= 1u << C2D_ERR_RANGE;
    return f;
}

/* Whether the mover's box and everything it may move (the displacement, the ride, a step up and down,
 * the look down) pass C2D_MAX_COORDINATE: the character mover's own range check (C2D_ERR_RANGE). */
static int fz_ch_too_far(const c2d_shape *m, c2d_vec2 d, c2d_vec2 carry, const c2d_character_options *o)
{
    c2d_aabb b;
    c2d_shape_get_aabb(m, &b);
    double mag = fmax(fmax(fabs(b.min.x), fabs(b.min.y)), fmax(fabs(b.max.x), fabs(b.max.y)));
    double reach = fz_vec_mag(d) + fz_vec_mag(carry) + 2 * o->step_height + o->snap_distance;
    return !(mag + reach <= C2D_MAX_COORDINATE);
}

/* The unit up of the options, scaled first as the library scales it. */
static c2d_vec2 fz_ch_up(const c2d_character_options *o)
{
    double m = fz_vec_mag(o->up);
    c2d_vec2 u = fz_v(o->up.x / m, o->up.y / m);
    double l = fz_len(u);
    return fz_v(u.x / l, u.y / l);
}

/* What every accepted call's result promises, and the flags against the state (grounded: the state
 * after, grounded_in: before, or -1 when not known; normal: the ground's). */
static void fz_ch_check_result(const c2d_character_result *r, const c2d_character_options *o, int grounded,
                               int grounded_in, c2d_vec2 normal, const char *what)
{
    FZ_CHECK(fz_finite_vec(r->displacement) && fz_finite_vec(r->snap) && r->count >= 0 && r->flags >= 0 &&
                 r->flags < 64,
             "%s result: displacement (%g, %g) snap (%g, %g) count %d flags %d", what, r->displacement.x,
             r->displacement.y, r->snap.x, r->snap.y, r->count, r->flags);
    FZ_CHECK(!!(r->flags & C2D_CHARACTER_SNAPPED) == !(r->snap.x == 0 && r->snap.y == 0),
             "%s flags %d with snap (%.17g, %.17g)", what, r->flags, r->snap.x, r->snap.y);
    FZ_CHECK(grounded_in < 0 ? !(r->flags & C2D_CHARACTER_LANDED) || grounded
                             : !!(r->flags & C2D_CHARACTER_LANDED) == (grounded && !grounded_in),
             "%s flags %d (LANDED) but grounded %d, before %d", what, r->flags, grounded, grounded_in);
    if (grounded) {
        /* Walkable ground, or wedged in a V of steeper ground (flagged STEEP). */
        c2d_vec2 u = fz_ch_up(o);
        double up = normal.x * u.x + normal.y * u.y;
        FZ_CHECK((r->flags & C2D_CHARACTER_STEEP) || up >= cos(o->max_slope) - 1e-9,
                 "%s grounded on a normal (%.17g, %.17g) steeper than max_slope %.17g without STEEP (flags %d)", what,
                 normal.x, normal.y, o->max_slope, r->flags);
    }
}

/* A record of a set's character names an enabled shape of the set with its value; the contact is
 * sane. */
static void fz_ch_check_set_record(const fz_state *st, const c2d_contact_record *r, int i)
{
    int k = r->contact.index;
    FZ_CHECK(r->id == 0 && k >= 0 && k < st->set_n && st->set_on[k] && r->user == st->set_user[k],
             "character record %d names shape %d (id %llu user %llu)", i, k, (unsigned long long)r->id,
             (unsigned long long)r->user);
    FZ_CHECK(isfinite(r->contact.t) && r->contact.t >= 0 && r->contact.t <= 1 && fz_finite_vec(r->contact.point) &&
                 fz_finite_vec(r->position) && fz_finite_vec(r->velocity),
             "character record %d at t %.17g not finite", i, r->contact.t);
    fz_check_unit(r->contact.normal, "character record normal");
}

/* The end check's responses: every member but those whose motion the check cannot follow (a turning
 * member carries a box and leans it into its face; after a slide run cut short at 256 contacts the
 * members go on moving while the character stays, and may crush it). */
static void fz_ch_end_responses(const fz_state *st, int count, c2d_response *resp)
{
    for (int i = 0; i < st->set_n; i++)
        resp[i] = fz_member_turns(st, i) || (count > 200 && fz_member_moves(st, i)) ? C2D_RESPONSE_NONE
                                                                                     : C2D_RESPONSE_SLIDE;
}

/* The character's mover size for the seam-tolerance exemption (as set_move's). */
static double fz_ch_size(const c2d_shape *m)
{
    c2d_aabb mb;
    c2d_shape_get_aabb(m, &mb);
    return fmin(mb.max.x - mb.min.x, mb.max.y - mb.min.y);
}

/* op set_character: c2d_static_set_move_character. */
void op_set_character(fz_state *st)
{
    uint8_t mode = fz_byte(st);
    int slot = fz_slot(st);
    c2d_shape *m = st->slot[slot];
    c2d_vec2 d = fz_vec(st);
    c2d_character_options o;
    const c2d_character_options *op = fz_ch_options(st, &o);
    c2d_character_state state;
    uint8_t sm = fz_byte(st);
    if ((sm & 0x80) && st->ch_valid) {
        state = st->ch; /* what the last accepted call left */
    } else {
        memset(&state, 0, sizeof state);
        state.grounded = (sm & 1) ? 1 : (sm & 2) ? 7 : 0;
        static const int far[] = {-2, INT_MIN, INT_MAX};
        int pick = (sm >> 2) & 7;
        state.ground_index = pick == 0 ? -1 : pick <= 3 ? (st->set_n > 0 ? (int)(fz_byte(st) % st->set_n) : 0)
                                                         : pick == 4 ? st->set_n : far[pick - 5];
        state.ground_normal = (sm & 0x20) ? fz_vec(st) : fz_v(0, 1);
        state.ground_velocity = (sm & 0x40) ? fz_vec(st) : fz_v(0, 0);
        state.ground_user = 12345;
    }
    int with_report = (mode & 2) != 0, null_state = (mode & 0x40) != 0, null_result = (mode & 0x20) != 0;
    c2d_character_state in = state, s1 = state;
    c2d_character_result res;
    memset(&res, FZ_POISON, sizeof res);
    fz_ch_report rc;
    fz_ch_start(&rc, fz_ch_rec);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_move_character(st->set, m, d, op, null_state ? NULL : &s1, null_result ? NULL : &res,
                                                 with_report ? fz_ch_keep : NULL, &rc);
    fz_check_status(s);
    fz_set_snapshot(st, &after);
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a character move changed the set");
    const c2d_character_options *eff = op ? op : &o;
    unsigned faults = fz_ch_faults(d, eff, in.ground_normal, in.ground_velocity);
    if (!st->set || !m || null_state || null_result)
        faults |= 1u << C2D_ERR_NULL;
    if (st->set && (in.ground_index < -1 || in.ground_index >= st->set_n))
        faults |= 1u << C2D_ERR_RANGE;
    if (m && fz_is_compound(m))
        faults |= 1u << C2D_ERR_NOT_CONVEX;
    int grounded_in = in.grounded && in.ground_index >= 0;
    c2d_vec2 carry = grounded_in && !faults ? st->set_vel[in.ground_index] : fz_v(0, 0);
    if (!faults && fz_ch_too_far(m, d, carry, eff))
        faults |= 1u << C2D_ERR_RANGE;
    if (fz_trace)
        fprintf(stderr, " -> set character: %d (faults %#x) moved (%.17g, %.17g) flags %d count %d grounded %d on %d", (int)s,
                faults, s == C2D_OK ? res.displacement.x : 0.0, s == C2D_OK ? res.displacement.y : 0.0,
                s == C2D_OK ? res.flags : -1, s == C2D_OK ? res.count : -1, s == C2D_OK ? s1.grounded : -1,
                s == C2D_OK ? s1.ground_index : -9);
    if (s != C2D_OK || faults) {
        FZ_CHECK(s == C2D_ERR_NO_MEMORY || (s != C2D_OK && ((1u << (unsigned)s) & faults)),
                 "set character gave %d, which names none of its faults (%#x)", (int)s, faults);
        FZ_CHECK(fz_is_poison(&res, sizeof res) && memcmp(&s1, &in, sizeof in) == 0 && rc.calls == 0,
                 "a refused set character (%d) wrote its result or state, or reported", (int)s);
        return;
    }
    /* The state after. */
    FZ_CHECK(s1.grounded == 0 || s1.grounded == 1, "character grounded %d", s1.grounded);
    if (s1.grounded) {
        int k = s1.ground_index;
        FZ_CHECK(k >= 0 && k < st->set_n && st->set_on[k] && s1.ground_user == st->set_user[k] &&
                     fz_vec_eq(s1.ground_velocity, st->set_vel[k]),
                 "character grounded on shape %d (user %llu, velocity (%g, %g))", k, (unsigned long long)s1.ground_user,
                 s1.ground_velocity.x, s1.ground_velocity.y);
        fz_check_unit(s1.ground_normal, "character ground normal");
    } else {
        FZ_CHECK(s1.ground_index == -1 && s1.ground_user == 0 && s1.ground_normal.x == 0 && s1.ground_normal.y == 0 &&
                     s1.ground_velocity.x == 0 && s1.ground_velocity.y == 0,
                 "character not grounded but ground %d user %llu normal (%g, %g)", s1.ground_index,
                 (unsigned long long)s1.ground_user, s1.ground_normal.x, s1.ground_normal.y);
    }
    fz_ch_check_result(&res, eff, s1.grounded, grounded_in, s1.ground_normal, "set character");
    if (with_report) {
        FZ_CHECK(rc.calls == 1 && rc.count == res.count, "character reported %d times, %d records of %d", rc.calls,
                 rc.count, res.count);
        for (int i = 0; i < res.count && i < FZ_CH_RECS; i++)
            fz_ch_check_set_record(st, &fz_ch_rec[i], i);
    }
    /* The same without a report (or with one). */
    c2d_character_state s2 = in;
    c2d_character_result res2;
    fz_ch_report rc2;
    fz_ch_start(&rc2, fz_ch_rec2);
    FZ_CHECK(c2d_static_set_move_character(st->set, m, d, op, &s2, &res2, with_report ? NULL : fz_ch_keep, &rc2) == C2D_OK &&
                 memcmp(&res2, &res, sizeof res) == 0 && memcmp(&s2, &s1, sizeof s1) == 0,
             "the set character call %s a report answers otherwise", with_report ? "without" : "with");
    /* Never inside a solid member (see fz_ch_end_responses). */
    double scale = fz_set_scale(st, m, d, 1) + fz_vec_mag(res.displacement) + fz_vec_mag(carry);
    if (fz_ok_number(eff->step_height) && fz_ok_number(eff->snap_distance))
        scale += eff->step_height + eff->snap_distance;
    double tol = FZ_REL_TOL * 4 * (1 + scale);
    c2d_response resp[FZ_SET_MAX];
    fz_ch_end_responses(st, res.count, resp);
    int w;
    double d1 = fz_set_clearance(st, m, res.displacement, 1, 1, resp, &w);
    if (!(st->set_seam_tol >= fz_ch_size(m)))
        FZ_CHECK(!(d1 < -tol), "the character moved by (%.17g, %.17g) ends %.17g inside shape %d (tol %g, flags %d)",
                 res.displacement.x, res.displacement.y, -d1, w, tol, res.flags);
    st->ch = s1;
    st->ch_valid = 1;
    /* Walk on: the slot's shape where the call took it (mode bit 7). */
    if ((mode & 0x80) && fz_ok_vec(res.displacement)) {
        c2d_vec2 p;
        c2d_shape_get_position(m, &p);
        c2d_shape_set_position(m, fz_v(p.x + res.displacement.x, p.y + res.displacement.y));
    }
}

/* ---- through a world ---- */

typedef struct fz_ch_respond {
    fz_state *st;
    uint8_t salt;
} fz_ch_respond;

static c2d_response fz_ch_answer(void *ctx, c2d_world_id id, uintptr_t user)
{
    fz_ch_respond *rc = (fz_ch_respond *)ctx;
    int k = fz_entry_of(rc->st, id);
    FZ_CHECK(k >= 0 && rc->st->ent[k].user == user && !rc->st->ent[k].off,
             "character respond called for id %llu, not a live enabled entry", (unsigned long long)id);
    return (c2d_response)((user + rc->salt) % 5);
}

/* op world_character: c2d_world_move_character through the world's entries (filter, respond) and its
 * level. */
void op_world_character(fz_state *st)
{
    uint8_t mode = fz_byte(st);
    int slot = fz_slot(st);
    c2d_shape *m = st->slot[slot];
    const c2d_shape *mover = m;
    if ((mode & 4) && st->n_ent > 0) {
        uint8_t pick = fz_byte(st);
        if (st->ent[pick % st->n_ent].live)
            mover = st->ent[pick % st->n_ent].shape; /* an entry's own shape: the entry is left out */
    }
    c2d_vec2 d = fz_vec(st);
    c2d_character_options o;
    const c2d_character_options *op = fz_ch_options(st, &o);
    c2d_world_filter fl;
    fz_query_ctx q;
    const c2d_world_filter *f = fz_filter(st, &fl, &q);
    fz_ch_respond rcb;
    rcb.st = st;
    rcb.salt = fz_byte(st);
    int use_respond = (mode & 8) != 0;
    c2d_world_character_state state;
    uint8_t sm = fz_byte(st);
    if ((sm & 0x80) && st->wch_valid) {
        state = st->wch;
    } else {
        memset(&state, 0, sizeof state);
        state.grounded = (sm & 1) ? 1 : (sm & 2) ? 3 : 0;
        int pick = (sm >> 2) & 7;
        state.ground_id = 0;
        state.ground_index = -1;
        if (pick == 1 || pick == 2) {
            state.ground_index = st->set_n > 0 ? (int)(fz_byte(st) % st->set_n) : 0; /* a level shape */
        } else if (pick == 3) {
            fz_entry_pick(st, &state.ground_id); /* an entry: live, removed or made up */
        } else if (pick == 4) {
            state.ground_index = st->set_n;
        } else if (pick >= 5) {
            state.ground_index = pick == 5 ? -2 : INT_MIN;
        }
        state.ground_normal = (sm & 0x20) ? fz_vec(st) : fz_v(0, 1);
        state.ground_velocity = (sm & 0x40) ? fz_vec(st) : fz_v(0, 0);
        state.ground_user = 777;
    }
    int with_report = (mode & 2) != 0;
    c2d_world_character_state in = state, s1 = state;
    c2d_character_result res;
    memset(&res, FZ_POISON, sizeof res);
    fz_ch_report rc;
    fz_ch_start(&rc, fz_ch_rec);
    int empty = -1;
    if (st->world)
        c2d_world_count(st->world, &empty);
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    /* The ground, read before the call (a callback may remove its entry): a level shape (id 0) or an
     * entry, when grounded. */
    unsigned ground_fault = 0;
    c2d_vec2 carry = fz_v(0, 0);
    if (in.grounded && st->world) {
        if (in.ground_id == 0) {
            if (st->level && in.ground_index >= st->set_n)
                ground_fault = 1u << C2D_ERR_RANGE;
            else if (st->level && in.ground_index >= 0)
                carry = st->set_vel[in.ground_index];
        } else {
            int k = fz_entry_of(st, in.ground_id);
            if (k < 0)
                ground_fault = 1u << C2D_ERR_RANGE; /* "a ground_id of no live entry while grounded" */
            else
                carry = st->ent[k].vel;
        }
    }
    c2d_status s = c2d_world_move_character(st->world, mover, d, f, use_respond ? fz_ch_answer : NULL, &rcb, op, &s1,
                                            &res, with_report ? fz_ch_keep : NULL, &rc);
    fz_check_status(s);
    int removed = f && f->accept && (q.mode & 1); /* the accept callback removes entries */
    if (!removed) {
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a world character move changed the world");
    }
    const c2d_character_options *eff = op ? op : &o;
    unsigned faults = fz_ch_faults(d, eff, in.ground_normal, in.ground_velocity);
    if (!st->world || !mover)
        faults |= 1u << C2D_ERR_NULL;
    if (mover && fz_is_compound(mover))
        faults |= 1u << C2D_ERR_NOT_CONVEX;
    faults |= ground_fault;
    /* The motion runs through the character mover of a set: its range check may refuse it (with the
     * ground's velocity when the call finds the ground, which the harness does not know). */
    int too_far = !faults && fz_ch_too_far(mover, d, carry, eff);
    if (fz_trace)
        fprintf(stderr,
                " (state grounded %d on %llu/%d) -> world character: %d (faults %#x%s) moved (%.17g, %.17g) flags %d "
                "count %d grounded %d on %llu/%d",
                in.grounded, (unsigned long long)in.ground_id, in.ground_index, (int)s, faults, too_far ? ", too far" : "",
                s == C2D_OK ? res.displacement.x : 0.0, s == C2D_OK ? res.displacement.y : 0.0,
                s == C2D_OK ? res.flags : -1, s == C2D_OK ? res.count : -1, s == C2D_OK ? s1.grounded : -1,
                s == C2D_OK ? (unsigned long long)s1.ground_id : 0ull, s == C2D_OK ? s1.ground_index : -9);
    if (!faults && s != C2D_OK) {
        FZ_CHECK(s == C2D_ERR_NO_MEMORY || (too_far && s == C2D_ERR_RANGE),
                 "world character refused valid input with %d%s", (int)s, too_far ? " (not for its range)" : "");
        FZ_CHECK(fz_is_poison(&res, sizeof res) && memcmp(&s1, &in, sizeof in) == 0 && rc.calls == 0,
                 "a refused world character (%d) wrote its result or state, or reported", (int)s);
        fz_bury(st);
        return;
    }
    if (faults) {
        FZ_CHECK(s == C2D_ERR_NO_MEMORY || (s != C2D_OK && ((1u << (unsigned)s) & faults)),
                 "world character gave %d, which names none of its faults (%#x)", (int)s, faults);
        FZ_CHECK(fz_is_poison(&res, sizeof res) && memcmp(&s1, &in, sizeof in) == 0 && rc.calls == 0,
                 "a refused world character (%d) wrote its result or state, or reported", (int)s);
        fz_bury(st);
        return;
    }
    /* The state after: a level shape, or a live enabled entry, or nothing. */
    FZ_CHECK(s1.grounded == 0 || s1.grounded == 1, "world character grounded %d", s1.grounded);
    if (s1.grounded && s1.ground_id == 0) {
        int k = s1.ground_index;
        FZ_CHECK(st->level && k >= 0 && k < st->set_n && st->set_on[k] && s1.ground_user == st->set_user[k] &&
                     fz_vec_eq(s1.ground_velocity, st->set_vel[k]),
                 "world character grounded on level shape %d (user %llu)", k, (unsigned long long)s1.ground_user);
        fz_check_unit(s1.ground_normal, "world character ground normal");
    } else if (s1.grounded) {
        int k = fz_entry_of(st, s1.ground_id);
        FZ_CHECK(removed || (k >= 0 && !st->ent[k].off && s1.ground_index == -1 && s1.ground_user == st->ent[k].user &&
                             fz_vec_eq(s1.ground_velocity, st->ent[k].vel) && st->ent[k].shape != mover &&
                             fz_bits_pass(f, st->ent[k].cat, st->ent[k].mask)),
                 "world character grounded on id %llu (entry %d, index %d)", (unsigned long long)s1.ground_id, k,
                 s1.ground_index);
        fz_check_unit(s1.ground_normal, "world character ground normal");
    } else {
        FZ_CHECK(s1.ground_id == 0 && s1.ground_index == -1 && s1.ground_user == 0 && s1.ground_normal.x == 0 &&
                     s1.ground_normal.y == 0 && s1.ground_velocity.x == 0 && s1.ground_velocity.y == 0,
                 "world character not grounded but ground %llu/%d", (unsigned long long)s1.ground_id,
                 s1.ground_index);
    }
    /* Grounded before on a ground the call may not see (an entry filtered out, disabled or answered
     * NONE; a level shape out of the motion's reach): LANDED is then not known. */
    int grounded_in = in.grounded && (in.ground_id != 0 || (st->level && in.ground_index >= 0)) ? -1 : 0;
    fz_ch_check_result(&res, eff, s1.grounded, grounded_in, s1.ground_normal, "world character");
    if (with_report) {
        FZ_CHECK(rc.calls == 1 && rc.count == res.count, "world character reported %d times, %d records of %d",
                 rc.calls, rc.count, res.count);
        for (int i = 0; i < res.count && i < FZ_CH_RECS && !removed; i++) {
            const c2d_contact_record *r = &fz_ch_rec[i];
            if (r->id == 0) {
                FZ_CHECK(fz_level_contact_ok(st, r->contact.index, r->user) && st->set_on[r->contact.index],
                         "world character record %d has id 0 but names no enabled level shape (%d)", i,
                         r->contact.index);
            } else {
                int k = fz_entry_of(st, r->id);
                FZ_CHECK(k >= 0 && !st->ent[k].off && st->ent[k].user == r->user && st->ent[k].shape != mover,
                         "world character record %d names id %llu, no live enabled entry", i, (unsigned long long)r->id);
            }
            fz_check_unit(r->contact.normal, "world character record normal");
        }
    }
    if (!removed) {
        /* Never inside a solid entry it could meet (passing the bits, accepted, answered solid, not
         * one-way, standing still), nor a solid level shape when none of them moves. */
        double scale = fmax(fz_shape_scale(mover), fz_vec_mag(res.displacement) + fz_vec_mag(d) + fz_vec_mag(carry));
        if (fz_ok_number(eff->step_height) && fz_ok_number(eff->snap_distance))
            scale += eff->step_height + eff->snap_distance;
        for (int k = 0; k < st->n_ent; k++)
            if (st->ent[k].live)
                scale = fmax(scale, fz_shape_scale(st->ent[k].shape) + fz_vec_mag(st->ent[k].vel));
        if (st->level)
            scale = fmax(scale, fz_set_scale(st, mover, d, 1));
        double tol = FZ_REL_TOL * 4 * (1 + scale);
        c2d_shape *moved = fz_moved(mover, res.displacement, 1);
        double worst = INFINITY;
        int which = -1;
        for (int k = 0; moved && k < st->n_ent; k++) {
            const fz_entry *e = &st->ent[k];
            if (!fz_entry_seen(e) || fz_entry_moves(e) || e->shape == mover || !fz_bits_pass(f, e->cat, e->mask) ||
                e->os || e->ow.x != 0 || e->ow.y != 0)
                continue;
            if (f && f->accept && !(q.called[k] && q.said[k]))
                continue;
            if (use_respond) {
                int r = (int)((e->user + rcb.salt) % 5);
                if (r == C2D_RESPONSE_NONE || r == C2D_RESPONSE_CROSS)
                    continue;
            }
            c2d_distance_result dr;
            if (c2d_distance(moved, e->shape, &dr) == C2D_OK && dr.distance < worst) {
                worst = dr.distance;
                which = k;
            }
        }
        c2d_shape_destroy(moved);
        int exempt = st->level && st->set_seam_tol >= fz_ch_size(mover);
        if (!exempt)
            FZ_CHECK(!(worst < -tol), "the world character moved by (%.17g, %.17g) ends %.17g inside entry %d (tol %g)",
                     res.displacement.x, res.displacement.y, -worst, which, tol);
        if (st->level && fz_set_max_speed(st) == 0 && !exempt) {
            int w;
            double d2 = fz_set_clearance(st, mover, res.displacement, 1, 0, NULL, &w);
            FZ_CHECK(!(d2 < -tol), "the world character ends %.17g inside level shape %d (tol %g)", -d2, w, tol);
        }
    }
    /* No entries and no level: nothing to meet. */
    if (empty == 0 && !st->level) {
        double tol = FZ_REL_TOL * 4 * (1 + fmax(fz_shape_scale(mover), fz_vec_mag(d)));
        FZ_CHECK(fz_len(fz_sub(res.displacement, d)) <= tol && res.count == 0 && !s1.grounded,
                 "a world character with nothing to meet moved (%.17g, %.17g) of (%.17g, %.17g), count %d grounded %d",
                 res.displacement.x, res.displacement.y, d.x, d.y, res.count, s1.grounded);
    }
    /* No entries, the set as the level: the set's own call, bit for bit, whenever the set accepts it (a
     * world state's ground_index is read only when grounded on the level; the set refuses one out of
     * range always). */
    if (empty == 0 && st->level && in.ground_id == 0) {
        c2d_character_state ss;
        memset(&ss, 0, sizeof ss);
        ss.grounded = in.grounded;
        ss.ground_index = in.ground_index;
        ss.ground_normal = in.ground_normal;
        ss.ground_velocity = in.ground_velocity;
        ss.ground_user = in.ground_user;
        c2d_character_result sres;
        fz_ch_report src;
        fz_ch_start(&src, fz_ch_rec2);
        c2d_status s2 = c2d_static_set_move_character(st->set, mover, d, op, &ss, &sres, fz_ch_keep, &src);
        if (s2 == C2D_OK) {
            FZ_CHECK(memcmp(&sres, &res, sizeof res) == 0 && ss.grounded == s1.grounded &&
                         ss.ground_index == s1.ground_index && s1.ground_id == 0 &&
                         fz_vec_eq(ss.ground_normal, s1.ground_normal) && fz_vec_eq(ss.ground_velocity, s1.ground_velocity) &&
                         ss.ground_user == s1.ground_user,
                     "through a level with no entries the world character moved (%.17g, %.17g) flags %d grounded %d on "
                     "%d, the set's own call (%.17g, %.17g) flags %d grounded %d on %d",
                     res.displacement.x, res.displacement.y, res.flags, s1.grounded, s1.ground_index,
                     sres.displacement.x, sres.displacement.y, sres.flags, ss.grounded, ss.ground_index);
            if (with_report)
                for (int i = 0; i < res.count && i < FZ_CH_RECS; i++)
                    FZ_CHECK(fz_record_same(&fz_ch_rec[i], &fz_ch_rec2[i]),
                             "through a level with no entries, world character record %d is not the set's", i);
        }
    }
    st->wch = s1;
    st->wch_valid = 1;
    fz_bury(st);
}
