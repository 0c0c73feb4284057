/* ops_moves.c - set moves and ball steps (ops 26, 27), and the contact records every move writes
 * (set and world alike): the _records form against the plain call, with room and short of it, and
 * where each record says the mover was. */
#include "fz.h"

/* ---- contact records ------------------------------------------------------------------------ */

static c2d_sweep_contact fz_all[FZ_REC_MAX];         /* every contact of the plain call, given room */
c2d_world_contact fz_wall[FZ_REC_MAX];               /* the same for a world call */
c2d_contact_record fz_rec[FZ_REC_MAX], fz_rec_short[FZ_REC_MAX];

/* Two contacts are the same, field by field to the bit (not byte by byte: the padding after index
 * is nobody's). */
int fz_contact_same(const c2d_sweep_contact *a, const c2d_sweep_contact *b)
{
    return a->index == b->index && fz_same_bits(a->t, b->t) && fz_same_bits(a->point.x, b->point.x) &&
           fz_same_bits(a->point.y, b->point.y) && fz_same_bits(a->normal.x, b->normal.x) &&
           fz_same_bits(a->normal.y, b->normal.y) && a->response == b->response && a->pushed_out == b->pushed_out;
}

int fz_record_same(const c2d_contact_record *a, const c2d_contact_record *b)
{
    return fz_contact_same(&a->contact, &b->contact) && fz_same_bits(a->position.x, b->position.x) &&
           fz_same_bits(a->position.y, b->position.y) && fz_same_bits(a->velocity.x, b->velocity.x) &&
           fz_same_bits(a->velocity.y, b->velocity.y) && a->id == b->id && a->user == b->user;
}

int fz_result_same(const c2d_move_result *a, const c2d_move_result *b)
{
    return memcmp(a, b, sizeof *a) == 0; /* five doubles' worth of numbers and two ints: no padding */
}

/* The capacity of the run short of room: below the count (0 when there is none), from numbers at
 * hand rather than input bytes, so that the committed corpus keeps its meaning. */
int fz_short_capacity(int count, int salt)
{
    return count > 0 ? (int)(((unsigned)salt * 7u + (unsigned)count) % (unsigned)count) : 0;
}

/* Where a record says the mover was at a contact that was no push-out: for a ball, the contact point
 * plus the radius along the normal, within FZ_REL_TOL of the scene's size (scale); and the mover
 * placed there (a circle of the ball's radius, or a copy of the moved shape) touches the shape it met
 * as that shape stood then (moved by mv * tm), within the harness's usual 4 FZ_REL_TOL of the scene. */
void fz_check_record_position(const c2d_contact_record *r, int i, const c2d_shape *mover, double radius,
                              const c2d_shape *met, c2d_vec2 mv, double tm, double scale, int by_parts)
{
    if (r->contact.pushed_out)
        return;
    FZ_CHECK(fz_finite_vec(r->position) && fz_finite_vec(r->velocity), "record %d: position or velocity not finite", i);
    if (!mover) {
        c2d_vec2 q = fz_v(r->contact.point.x + radius * r->contact.normal.x,
                          r->contact.point.y + radius * r->contact.normal.y);
        double off = fz_len(fz_sub(q, r->position));
        FZ_CHECK(off <= FZ_REL_TOL * (1 + scale),
                 "record %d: the ball was at (%.17g, %.17g), but point + radius * normal is (%.17g, %.17g), %.3g away "
                 "(scene %g)",
                 i, r->position.x, r->position.y, q.x, q.y, off, scale);
    }
    if (!fz_ok_vec(r->position))
        return;
    c2d_shape *at = NULL;
    if (mover) {
        if (c2d_shape_clone(mover, &at) != C2D_OK || c2d_shape_set_position(at, r->position) != C2D_OK) {
            c2d_shape_destroy(at);
            return;
        }
    } else if (c2d_circle_new(r->position.x, r->position.y, radius, &at) != C2D_OK) {
        return;
    }
    c2d_shape *then = (mv.x != 0 || mv.y != 0) && tm != 0 ? fz_moved(met, mv, tm) : NULL;
    c2d_distance_result dr;
    double tol = FZ_REL_TOL * 4 * (1 + scale);
    /* (A one-way chain or concave polygon: the part met, see fz_part_distance.) */
    if (by_parts && fz_is_compound(met))
        dr.distance = fz_part_distance(at, met, fz_v(mv.x * tm, mv.y * tm));
    if (((mv.x == 0 && mv.y == 0) || tm == 0 || then) &&
        ((by_parts && fz_is_compound(met)) || c2d_distance(at, then ? then : met, &dr) == C2D_OK) && !isnan(dr.distance))
        FZ_CHECK(fabs(dr.distance) <= tol,
                 "record %d (t %.17g, response %d): the mover at (%.17g, %.17g) is %.17g from the shape it met (tol %g)",
                 i, r->contact.t, (int)r->contact.response, r->position.x, r->position.y, dr.distance, tol);
    c2d_shape_destroy(then);
    c2d_shape_destroy(at);
}

/* fz_check_record_position for a contact with a turning member, placed by the harness where it stood
 * then (fz_member_at). The rotating sweep may answer a contact early, apart from the member but never
 * inside it (the header's "a little early (after 200 steps), never late": a motion grazing the member,
 * or a member turning thousands of radians in one call, whose bound on its points' speed makes every
 * step short), and its point is then midway between the two surfaces, half the gap from each. So the
 * mover where the record says it was is not inside the member deeper than the harness's usual 4
 * FZ_REL_TOL of the scene, and for a ball, point + radius * normal is within half the gap (and
 * FZ_REL_TOL of the scene) of that place. */
static void fz_check_turning_record(const c2d_contact_record *r, int i, const c2d_shape *mover, double radius,
                                    const c2d_shape *then, double scale, int by_parts)
{
    if (r->contact.pushed_out)
        return;
    FZ_CHECK(fz_finite_vec(r->position) && fz_finite_vec(r->velocity), "record %d: position or velocity not finite", i);
    if (!fz_ok_vec(r->position))
        return;
    c2d_shape *at = NULL;
    if (mover) {
        if (c2d_shape_clone(mover, &at) != C2D_OK || c2d_shape_set_position(at, r->position) != C2D_OK) {
            c2d_shape_destroy(at);
            return;
        }
    } else if (c2d_circle_new(r->position.x, r->position.y, radius, &at) != C2D_OK) {
        return;
    }
    c2d_distance_result dr;
    double gap = NAN, tol = FZ_REL_TOL * 4 * (1 + scale);
    if (by_parts && fz_is_compound(then))
        gap = fz_part_distance(at, then, fz_v(0, 0));
    else if (c2d_distance(at, then, &dr) == C2D_OK)
        gap = dr.distance;
    c2d_shape_destroy(at);
    FZ_CHECK(!(gap < -tol),
             "record %d (t %.17g, response %d): the mover at (%.17g, %.17g) is %.17g inside the turning member it met "
             "(tol %g)",
             i, r->contact.t, (int)r->contact.response, r->position.x, r->position.y, -gap, tol);
    if (mover || isnan(gap))
        return;
    c2d_vec2 q = fz_v(r->contact.point.x + radius * r->contact.normal.x, r->contact.point.y + radius * r->contact.normal.y);
    double off = fz_len(fz_sub(q, r->position));
    FZ_CHECK(off <= 0.5 * fmax(gap, 0) + FZ_REL_TOL * (1 + scale) + tol,
             "record %d: the ball was at (%.17g, %.17g), %.3g from the turning member, but point + radius * normal is "
             "(%.17g, %.17g), %.3g away (scene %g)",
             i, r->position.x, r->position.y, gap, q.x, q.y, off, scale);
}

/* The _records form of a set move (ball0 NULL) or ball step against the plain call just made, which
 * gave res (and the ball ball1) and contacts c[0 .. min(count, usecap)): the plain call again with room
 * for every contact (into fz_all), the records call with that room (into fz_rec), and the records call
 * short of room. Same status, results and ball to the bit; record i's contact is plain contact i, id
 * and user 0; a short run writes exactly the first `capacity` records of the full one and counts them
 * all. Returns how many contacts fz_all holds: all of them, or -1 when there were more than room. */
static int fz_check_set_records(fz_state *st, const c2d_shape *m, c2d_vec2 d, const c2d_ball *ball0, double dt,
                                const c2d_move_options *op, const c2d_move_result *res, const c2d_ball *ball1,
                                const c2d_sweep_contact *c, int usecap, double scale)
{
    const char *what = ball0 ? "ball step" : "move";
    c2d_move_result r1, r2, r3;
    c2d_ball b1, b2, b3;
    memset(&b1, 0, sizeof b1);
    if (ball0)
        b1 = b2 = b3 = *ball0;
    memset(fz_all, FZ_POISON, sizeof fz_all);
    c2d_status s1 = ball0 ? c2d_static_set_step_ball(st->set, &b1, dt, op, &r1, fz_all, FZ_REC_MAX)
                          : c2d_static_set_move(st->set, m, d, op, &r1, fz_all, FZ_REC_MAX);
    FZ_CHECK(s1 == C2D_OK && fz_result_same(&r1, res) && (!ball0 || memcmp(&b1, ball1, sizeof b1) == 0),
             "the plain %s with room for every contact gave %d and another result", what, (int)s1);
    int written = res->count < usecap ? res->count : usecap, all = res->count < FZ_REC_MAX ? res->count : FZ_REC_MAX;
    for (int i = 0; i < written; i++)
        FZ_CHECK(fz_contact_same(&fz_all[i], &c[i]), "%s contact %d differs with room for every contact", what, i);
    memset(fz_rec, FZ_POISON, sizeof fz_rec);
    memset(&r2, FZ_POISON, sizeof r2);
    c2d_status s2 = ball0 ? c2d_static_set_step_ball_records(st->set, &b2, dt, op, &r2, fz_rec, FZ_REC_MAX)
                          : c2d_static_set_move_records(st->set, m, d, op, &r2, fz_rec, FZ_REC_MAX);
    FZ_CHECK(s2 == C2D_OK && fz_result_same(&r2, res) && (!ball0 || memcmp(&b2, ball1, sizeof b2) == 0),
             "the %s with records gave %d and another result than the plain call", what, (int)s2);
    for (int i = 0; i < all; i++) {
        FZ_CHECK(fz_contact_same(&fz_rec[i].contact, &fz_all[i]), "%s record %d is not plain contact %d", what, i, i);
        int k = fz_rec[i].contact.index;
        /* id 0; user the member's value (c2d_static_set_set_user, 0 unless given: op world_level). */
        FZ_CHECK(fz_rec[i].id == 0 && k >= 0 && k < st->set_n && fz_rec[i].user == st->set_user[k],
                 "%s record %d of a static set has id %llu user %llu (shape %d)", what, i,
                 (unsigned long long)fz_rec[i].id, (unsigned long long)fz_rec[i].user, k);
        if (k >= 0 && k < st->set_n && !fz_member_turns(st, k))
            fz_check_record_position(&fz_rec[i], i, m, ball0 ? ball0->radius : 0, st->set_shape[k], st->set_vel[k],
                                     fz_rec[i].contact.t * dt, scale, fz_member_one_way(st, k));
        /* A turning member as it stood then: placed by the harness (fz_member_at). */
        const c2d_shape *then;
        c2d_shape *owned;
        if (k >= 0 && k < st->set_n && fz_member_turns(st, k) &&
            fz_member_at(st, k, fz_rec[i].contact.t * dt, &then, &owned)) {
            fz_check_turning_record(&fz_rec[i], i, m, ball0 ? ball0->radius : 0, then, scale, fz_member_one_way(st, k));
            c2d_shape_destroy(owned);
        }
    }
    FZ_CHECK(fz_is_poison(fz_rec + all, (size_t)(FZ_REC_MAX - all) * sizeof fz_rec[0]),
             "%s records written past the count %d", what, all);
    int cap = fz_short_capacity(res->count, usecap + 2);
    c2d_contact_record *out = cap == 0 && (res->count & 1) ? NULL : fz_rec_short;
    memset(fz_rec_short, FZ_POISON, sizeof fz_rec_short);
    memset(&r3, FZ_POISON, sizeof r3);
    c2d_status s3 = ball0 ? c2d_static_set_step_ball_records(st->set, &b3, dt, op, &r3, out, cap)
                          : c2d_static_set_move_records(st->set, m, d, op, &r3, out, cap);
    FZ_CHECK(s3 == C2D_OK && fz_result_same(&r3, res) && (!ball0 || memcmp(&b3, ball1, sizeof b3) == 0),
             "the %s with room for %d records gave %d and another result (count %d)", what, cap, (int)s3, r3.count);
    for (int i = 0; i < cap; i++)
        FZ_CHECK(fz_record_same(&fz_rec_short[i], &fz_rec[i]), "%s record %d differs with room for %d", what, i, cap);
    FZ_CHECK(fz_is_poison(fz_rec_short + cap, (size_t)(FZ_REC_MAX - cap) * sizeof fz_rec_short[0]),
             "%s with room for %d records wrote more", what, cap);
    return res->count <= FZ_REC_MAX ? res->count : -1;
}

/* When the mover's motion ended, as a fraction of the call's time, given every contact (all of
 * fz_all, or -1: not known): at the contact that stopped it (a touch on a member that stands still)
 * or that cut it short (truncated), else at the end. Members with a velocity go on moving to the end
 * of the call whatever the mover does, so a mover stopped early may be overtaken by one (crushed
 * between a moving member and a wall: nothing can be promised there); it is clear of them when it
 * stopped. NAN when not known: moving members are then left out of the end check. */
static double fz_end_time(const fz_state *st, const c2d_move_result *res, int all)
{
    if (all < 0)
        return NAN;
    if (all == 0)
        return 1;
    const c2d_sweep_contact *l = &fz_all[all - 1];
    if (res->truncated ||
        (l->response == C2D_RESPONSE_TOUCH && !l->pushed_out && l->index >= 0 && l->index < st->set_n &&
         !fz_member_moves(st, l->index)))
        return l->t;
    return 1;
}

/* The turning member the mover rode to the end of the call, or -1: a member that met it 8 times in a
 * row (crossings aside) carries it for the rest of the call, turning its position about the pivot
 * with the member's surface (the library's rule for a face that keeps chasing the mover, src/run.c:
 * each bounce would come sooner than the last, for ever). See fz_end_responses for what that leaves
 * of the end check. */
static int fz_rode(const fz_state *st, int all)
{
    int k = -1, run = 0;
    for (int j = all - 1; j >= 0 && run < 8; j--) {
        const c2d_sweep_contact *c = &fz_all[j];
        if (c->response == C2D_RESPONSE_CROSS)
            continue;
        if (c->pushed_out || c->index < 0 || c->index >= st->set_n || !fz_member_turns(st, c->index) ||
            (k >= 0 && c->index != k))
            return -1;
        k = c->index;
        run++;
    }
    return run >= 8 ? k : -1;
}

/* The responses the end check of a move or ball step uses (resp, with members left out as NONE), given
 * every contact (all, or -1: not known). After a ride on a turning member (fz_rode):
 *  - the mover is only translated, not turned: a ball's centre keeps its distance from the face, but
 *    any other mover leans into the face as it turns, and ends inside it by up to its size times the
 *    angle turned. The header promises no more (a ball never ends inside a turning member), so the
 *    carrier is left out for a mover other than a circle;
 *  - the ride is not swept against the other members: the mover is carried through any of them in its
 *    way, also one the carrier never reaches (a post just beyond a flipper's tip: known bug,
 *    fuzz/known/set-ball-carried-by-a-flipper-through-a-post, README; fixed: the ride is swept, a mover
 *    other than a ball as the disc about its position that holds it at every angle). Unless
 *    FZ_STRICT_CARRY=0 every member is checked but the carrier and the members that move (either may
 *    crush the mover where the ride stopped, as any moving member may). */
static void fz_end_responses(const fz_state *st, int all, const c2d_response *resp, int circle, c2d_response *out)
{
    memcpy(out, resp, (size_t)st->set_n * sizeof *out);
    int rode = fz_rode(st, all);
    if (rode < 0)
        return;
    /* A ride that meets another member stops there for the rest of the call, and a member that moves
     * may then run into the mover (a crush, which the README allows): with FZ_STRICT_CARRY only the
     * members that stand still are checked besides the carrier's rule. */
    for (int i = 0; i < st->set_n; i++)
        if (fz_strict_carry ? i == rode || fz_member_moves(st, i) : i != rode || !circle)
            out[i] = C2D_RESPONSE_NONE;
}

/* Whether the mover met a member that moves (every contact known), or may have (not known). */
static int fz_met_moving(const fz_state *st, int all)
{
    if (all < 0)
        return fz_set_max_speed(st) > 0;
    for (int k = 0; k < all; k++)
        if (fz_all[k].index >= 0 && fz_all[k].index < st->set_n && fz_member_moves(st, fz_all[k].index))
            return 1;
    return 0;
}

void op_set_move(fz_state *st)
{
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_vec2 d = fz_vec(st);
    c2d_move_options o;
    c2d_response arr[FZ_SET_MAX], resp[FZ_SET_MAX];
    int opt_ok;
    const c2d_move_options *op =
        fz_move_options(st, &o, arr, st->set_n, C2D_RESPONSE_SLIDE, resp, &opt_ok);
    int cap = (int)(fz_byte(st) % 19) - 2;
    int null_contacts = cap > 0 && (fz_byte(st) & 0x80);
    c2d_sweep_contact c[16];
    c2d_move_result res;
    memset(c, FZ_POISON, sizeof c);
    memset(&res, FZ_POISON, sizeof res);
    int usecap = cap > 16 ? 16 : cap;
    int compound = m && fz_is_compound(m);
    fz_set_snap before, after;
    if (compound)
        fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_move(st->set, m, d, op, &res, null_contacts ? NULL : c, usecap);
    fz_check_status(s);
    if (!st->set || !m || null_contacts || usecap < 0 || !fz_ok_vec(d) || !opt_ok || compound) {
        FZ_CHECK(s != C2D_OK, "bad move accepted");
        /* A chain or concave polygon is no mover: C2D_ERR_NOT_CONVEX when nothing else is wrong. */
        if (st->set && compound && !null_contacts && usecap >= 0 && fz_ok_vec(d) && opt_ok)
            FZ_CHECK(s == C2D_ERR_NOT_CONVEX, "move of a compound mover gave %d", (int)s);
        if (compound) {
            fz_set_snapshot(st, &after);
            FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a refused move changed the set");
        }
        FZ_CHECK(fz_is_poison(&res, sizeof res) && fz_is_poison(c, sizeof c), "move wrote on error");
        /* The records form refuses the same call with the same status, writing nothing. */
        memset(fz_rec, FZ_POISON, sizeof fz_rec);
        c2d_status s2 = c2d_static_set_move_records(st->set, m, d, op, &res, null_contacts ? NULL : fz_rec, usecap);
        FZ_CHECK(s2 == s && fz_is_poison(&res, sizeof res) && fz_is_poison(fz_rec, sizeof fz_rec),
                 "move_records gave %d where move gave %d, or wrote on error", (int)s2, (int)s);
        return;
    }
    FZ_CHECK(s == C2D_OK, "move rejected with %d", (int)s);
    if (fz_trace) {
        fprintf(stderr, " -> moved (%.17g, %.17g) count %d options %s", res.displacement.x, res.displacement.y,
                res.count, op ? "" : "NULL");
        for (int i = 0; op && i < st->set_n; i++)
            fprintf(stderr, " r%d=%d", i, (int)resp[i]);
    }
    FZ_CHECK(c2d_static_set_move(st->set, m, d, op, NULL, NULL, 0) == C2D_ERR_NULL, "move with NULL result accepted");
    fz_check_move_result(&res);
    fz_check_contacts(c, usecap, res.count, st->set_n, resp);
    /* A move lasts one unit of time: moving members move by their velocity over it. */
    double scale = fz_set_scale(st, m, d, 1) + fz_vec_mag(res.displacement);
    double tol = FZ_REL_TOL * 4 * (1 + scale);
    int all = fz_check_set_records(st, m, d, NULL, 1, op, &res, NULL, c, usecap, scale);
    for (int k = 0; fz_trace && k < all; k++)
        fprintf(stderr, "\n  contact %d: shape %d t %.17g point (%.17g, %.17g) normal (%.17g, %.17g) response %d%s, at "
                "(%.17g, %.17g) then moving (%.17g, %.17g)",
                k, fz_rec[k].contact.index, fz_rec[k].contact.t, fz_rec[k].contact.point.x, fz_rec[k].contact.point.y,
                fz_rec[k].contact.normal.x, fz_rec[k].contact.normal.y, (int)fz_rec[k].contact.response,
                fz_rec[k].contact.pushed_out ? " (pushed out)" : "", fz_rec[k].position.x, fz_rec[k].position.y,
                fz_rec[k].velocity.x, fz_rec[k].velocity.y);
    fz_check_one_way_contacts(st, fz_all, all < 0 ? FZ_REC_MAX : all, 1, scale);
    int w;
    double t_end = fz_end_time(st, &res, all);
    /* After a ride on a turning member, see fz_end_responses. */
    c2d_response end_resp[FZ_SET_MAX];
    fz_end_responses(st, all, resp, c2d_shape_get_type(m) == C2D_SHAPE_CIRCLE, end_resp);
    double d1 = fz_set_clearance(st, m, res.displacement, 1, t_end, end_resp, &w);
    /* Unless the set's seam tolerance is as large as the mover (as for set_sweep): a gap that the
     * tolerance counts as a seam hides the faces and corners beside it and stays open. */
    c2d_aabb mb;
    c2d_shape_get_aabb(m, &mb);
    if (!(st->set_seam_tol >= fmin(mb.max.x - mb.min.x, mb.max.y - mb.min.y)))
        FZ_CHECK(!(d1 < -tol), "moved by (%.17g, %.17g), the mover ends %.17g inside shape %d (response %d, at t %g)",
                 res.displacement.x, res.displacement.y, d1, w, w >= 0 ? (int)resp[w] : -1, t_end);
    if (res.count == 0)
        FZ_CHECK(fz_len(fz_sub(res.displacement, d)) <= tol && fz_len(fz_sub(res.velocity, d)) <= tol,
                 "no contact but moved by (%.17g, %.17g) of (%.17g, %.17g)", res.displacement.x, res.displacement.y, d.x,
                 d.y);
    /* After a touch the mover rests on the shape: at rest, or carried along with a moving member (its
     * velocity). A truncated motion stopped before its last contact's response. */
    const c2d_sweep_contact *l = all > 0 ? &fz_all[all - 1] : NULL;
    if (l && !res.truncated && l->response == C2D_RESPONSE_TOUCH && !l->pushed_out && !fz_member_turns(st, l->index)) {
        c2d_vec2 w_last = st->set_vel[l->index];
        FZ_CHECK(fz_vec_eq(res.velocity, w_last), "velocity (%g, %g) after a touch on a member moving at (%g, %g)",
                 res.velocity.x, res.velocity.y, w_last.x, w_last.y);
    }
    /* A touch on a turning member leaves the mover moving with the member's surface at the contact
     * point, v + w x r (r from where the pivot has moved to then); or, when the touches came 8 in a row
     * and the member carried the mover (the library's rule for a face that keeps chasing the mover),
     * with its surface where the mover's position ends, at the time the ride ended: the end of the move,
     * or earlier where the ride met another solid member and stopped there (src/run.c, carry). That
     * time is not reported, but the surface's velocity at one point is linear in time (the pivot moves
     * with v), so the answer lies on the segment between its values at the last touch and at the end.
     * Within 1e-9 of the surface's speed there, and the rounding of the pivot's place (libm's
     * trigonometry). */
    if (l && !res.truncated && l->response == C2D_RESPONSE_TOUCH && !l->pushed_out && fz_member_turns(st, l->index)) {
        c2d_motion mo = fz_member_motion(st, l->index);
        const c2d_shape *sh = st->set_shape[l->index];
        c2d_vec2 p0 = fz_v(0, 0);
        c2d_shape_get_position(m, &p0);
        c2d_vec2 end = fz_v(p0.x + res.displacement.x, p0.y + res.displacement.y);
        c2d_vec2 at_point = fz_motion_velocity_at(sh, &mo, l->t, l->point), at_end = fz_motion_velocity_at(sh, &mo, 1, end);
        double wa = fabs(mo.angular_velocity), cm = fz_len(fz_pivot_world(sh, &mo)), vm = fz_len(mo.velocity);
        double vt1 = 1e-9 * (fz_len(at_point) + wa * (fz_len(l->point) + cm + vm)) + wa * 1e-12 * (1 + scale);
        c2d_vec2 at_touch = fz_motion_velocity_at(sh, &mo, l->t, end);
        double vt2 = 1e-9 * (fmax(fz_len(at_end), fz_len(at_touch)) + wa * (fz_len(end) + cm + vm)) +
                     wa * 1e-12 * (1 + scale);
        FZ_CHECK(fz_len(fz_sub(res.velocity, at_point)) <= vt1 ||
                     fz_len(fz_sub(res.velocity, fz_seg_closest(at_touch, at_end, res.velocity))) <= vt2,
                 "velocity (%.17g, %.17g) after a touch on turning member %d: its surface moves at (%.17g, %.17g) at the "
                 "contact point and at (%.17g, %.17g) to (%.17g, %.17g) where the mover ends (from the last touch to the "
                 "end)",
                 res.velocity.x, res.velocity.y, l->index, at_point.x, at_point.y, at_touch.x, at_touch.y, at_end.x,
                 at_end.y);
    }
    /* The path is never longer than asked: unless the mover met a moving member, which carries it
     * along (touch, slide) or hands it its speed (bounce), without bound over many contacts. */
    if (!fz_met_moving(st, all))
        FZ_CHECK(res.travelled <= fz_len(d) * (1 + 1e-9) + tol, "travelled %.17g of %.17g", res.travelled, fz_len(d));
}

c2d_ball fz_ball(fz_state *st)
{
    c2d_ball b;
    b.position = fz_vec(st);
    b.velocity = fz_vec(st);
    b.radius = fz_number(st);
    return b;
}

int fz_ball_ok(const c2d_ball *b, double dt)
{
    return fz_ok_vec(b->position) && fz_ok_vec(b->velocity) && fz_ok_number(b->radius) && b->radius > 0 &&
           fz_ok_number(dt) && dt >= 0 && fz_vec_mag(b->velocity) * dt <= C2D_MAX_COORDINATE;
}

/* Whether a ball step keeps the speed: restitution 1, no friction, every response a bounce (or
 * cross, or ignore), not cut short, and no two contacts at once from facing sides (a jammed ball). */
static int fz_keeps_speed(const c2d_move_options *o, const c2d_response *resp, int n, const c2d_move_result *r,
                          const c2d_sweep_contact *c, int written)
{
    if (r->truncated || (o && (o->restitution != 1 || o->friction != 0)))
        return 0;
    for (int i = 0; i < n; i++)
        if (resp[i] == C2D_RESPONSE_TOUCH || resp[i] == C2D_RESPONSE_SLIDE)
            return 0;
    if (r->count > written)
        return 0;
    for (int i = 0; i < written; i++)
        for (int j = i + 1; j < written; j++)
            if (fabs(c[i].t - c[j].t) <= 1e-9 && c[i].normal.x * c[j].normal.x + c[i].normal.y * c[j].normal.y < 0)
                return 0;
    return 1;
}

void op_set_ball(fz_state *st)
{
    c2d_ball b = fz_ball(st);
    double dt = fz_number(st);
    c2d_move_options o;
    c2d_response arr[FZ_SET_MAX], resp[FZ_SET_MAX];
    int opt_ok;
    const c2d_move_options *op = fz_move_options(st, &o, arr, st->set_n, C2D_RESPONSE_BOUNCE, resp, &opt_ok);
    int cap = (int)(fz_byte(st) % 19) - 2;
    int no_result = fz_byte(st) & 1;
    int usecap = cap > 16 ? 16 : cap;
    c2d_sweep_contact c[16];
    c2d_move_result res;
    c2d_ball b0 = b;
    memset(c, FZ_POISON, sizeof c);
    memset(&res, FZ_POISON, sizeof res);
    c2d_status s = c2d_static_set_step_ball(st->set, &b, dt, op, no_result ? NULL : &res, c, usecap);
    fz_check_status(s);
    if (!st->set || usecap < 0 || !fz_ball_ok(&b0, dt) || !opt_ok) {
        FZ_CHECK(s != C2D_OK, "bad ball step accepted");
        FZ_CHECK(memcmp(&b, &b0, sizeof b) == 0, "rejected ball step changed the ball");
        FZ_CHECK(fz_is_poison(&res, sizeof res) && fz_is_poison(c, sizeof c), "ball step wrote on error");
        memset(fz_rec, FZ_POISON, sizeof fz_rec);
        c2d_status s2 = c2d_static_set_step_ball_records(st->set, &b, dt, op, no_result ? NULL : &res, fz_rec, usecap);
        FZ_CHECK(s2 == s && memcmp(&b, &b0, sizeof b) == 0 && fz_is_poison(&res, sizeof res) &&
                     fz_is_poison(fz_rec, sizeof fz_rec),
                 "step_ball_records gave %d where step_ball gave %d, or changed the ball or wrote on error", (int)s2,
                 (int)s);
        return;
    }
    FZ_CHECK(s == C2D_OK, "ball step rejected with %d", (int)s);
    if (fz_trace) {
        fprintf(stderr, " -> ball (%.17g, %.17g) v (%.17g, %.17g) options %s", b.position.x, b.position.y,
                b.velocity.x, b.velocity.y, op ? "" : "NULL");
        for (int i = 0; op && i < st->set_n; i++)
            fprintf(stderr, " r%d=%d", i, (int)resp[i]);
    }
    FZ_CHECK(fz_finite_vec(b.position) && fz_finite_vec(b.velocity) && b.radius == b0.radius, "ball after the step");
    if (no_result) {
        FZ_CHECK(fz_is_poison(&res, sizeof res), "result written though NULL");
        c2d_ball again = b0;
        c2d_status s2 = c2d_static_set_step_ball(st->set, &again, dt, op, &res, c, usecap);
        FZ_CHECK(s2 == C2D_OK && memcmp(&again, &b, sizeof b) == 0, "ball step not repeatable");
    }
    fz_check_move_result(&res);
    fz_check_contacts(c, usecap, res.count, st->set_n, resp);
    /* A step lasts dt: moving members move by their velocity times dt over it. */
    c2d_shape *ball = NULL;
    if (c2d_circle_new(b.position.x, b.position.y, b.radius, &ball) != C2D_OK)
        ball = NULL;
    double scale = fz_set_scale(st, ball, ball ? fz_v(0, 0) : b.position, dt) + fz_vec_mag(b0.position) +
                   fz_vec_mag(b0.velocity) * dt;
    int all = fz_check_set_records(st, NULL, fz_v(0, 0), &b0, dt, op, &res, &b, c, usecap, scale);
    for (int k = 0; fz_trace && k < all; k++)
        fprintf(stderr, "\n  contact %d: shape %d t %.17g point (%.17g, %.17g) normal (%.17g, %.17g) response %d%s, at "
                "(%.17g, %.17g) then moving (%.17g, %.17g)",
                k, fz_rec[k].contact.index, fz_rec[k].contact.t, fz_rec[k].contact.point.x, fz_rec[k].contact.point.y,
                fz_rec[k].contact.normal.x, fz_rec[k].contact.normal.y, (int)fz_rec[k].contact.response,
                fz_rec[k].contact.pushed_out ? " (pushed out)" : "", fz_rec[k].position.x, fz_rec[k].position.y,
                fz_rec[k].velocity.x, fz_rec[k].velocity.y);
    fz_check_one_way_contacts(st, fz_all, all < 0 ? FZ_REC_MAX : all, dt, scale);
    if (ball) {
        double tol = FZ_REL_TOL * 4 * (1 + scale);
        int w;
        double t_end = fz_end_time(st, &res, all);
        c2d_response end_resp[FZ_SET_MAX];
        fz_end_responses(st, all, resp, 1, end_resp);
        double d1 = fz_set_clearance(st, ball, fz_v(0, 0), 0, t_end * dt, end_resp, &w);
        c2d_shape_destroy(ball);
        if (!(st->set_seam_tol >= 2 * b0.radius)) /* as for set_move */
            FZ_CHECK(!(d1 < -tol), "the ball ends %.17g inside shape %d (tol %g, at t %g)", d1, w, tol, t_end);
    }
    int written = res.count < usecap ? res.count : usecap;
    /* A ball far below the set's resolution (the touching tolerance is 1e-12 of the scene's size) sees
     * every nearby surface as touching, from either side: its speed is not promised there. */
    int resolved = 0;
    c2d_shape *probe = NULL;
    if (c2d_circle_new(b0.position.x, b0.position.y, b0.radius, &probe) == C2D_OK) {
        resolved = b0.radius > 1e-6 * fz_set_scale(st, probe, fz_v(0, 0), 0);
        c2d_shape_destroy(probe);
    }
    /* A bounce off a moving member reflects the motion relative to it: the speed changes (a paddle
     * speeds the ball up), so the speed is promised only when no contact was with one. */
    if (resolved && fz_keeps_speed(op, resp, st->set_n, &res, c, written) && !fz_met_moving(st, all)) {
        double v0 = fz_len(b0.velocity), v1 = fz_len(b.velocity);
        FZ_CHECK(fabs(v1 - v0) <= 1e-9 * v0, "speed %.17g became %.17g with restitution 1 (%d contacts)", v0, v1,
                 res.count);
    }
}
