/* ops_members.c - members of a static set that move, turn and block from one side (ops 40-42, 49):
 * re-placed, given velocities, rigid motions (a turn about a pivot) and one-way directions, with every
 * status predicted, refusals changing nothing and a member put back leaving the whole set, seams
 * included, as it was. */
#include "fz.h"

/* ---- members of a static set that move and block from one side -------------------------------- */

/* The status the library gives a number or a vector (first x, then y): not finite, out of range, or ok. */
c2d_status fz_number_status(double x)
{
    return !isfinite(x) ? C2D_ERR_NOT_FINITE : fabs(x) > C2D_MAX_COORDINATE ? C2D_ERR_RANGE : C2D_OK;
}

c2d_status fz_vec_status(c2d_vec2 v)
{
    c2d_status s = fz_number_status(v.x);
    return s != C2D_OK ? s : fz_number_status(v.y);
}

/* A member index for the member calls: usually valid, sometimes -1 or n, or far out of range. */
static int fz_member_index(fz_state *st, uint8_t mode)
{
    int i = fz_set_index(st);
    if (mode & 0x80)
        i = (mode & 0x40) ? INT_MAX : INT_MIN;
    return i;
}

/* What a one-way getter must give for direction v: zero for zero (either sign), else v's unit vector
 * (scaled first, so that denormal and huge directions have one too). Checks the library's u against
 * it within a few ulps. */
void fz_check_one_way_dir(c2d_vec2 v, c2d_vec2 u, const char *what)
{
    double m = fmax(fabs(v.x), fabs(v.y));
    if (!(m > 0)) {
        FZ_CHECK(u.x == 0 && u.y == 0, "%s: one-way (%.17g, %.17g) for a zero direction", what, u.x, u.y);
        return;
    }
    c2d_vec2 a = fz_v(v.x / m, v.y / m);
    double l = hypot(a.x, a.y);
    c2d_vec2 want = fz_v(a.x / l, a.y / l);
    FZ_CHECK(fz_finite_vec(u) && fz_len(fz_sub(u, want)) <= 4 * DBL_EPSILON,
             "%s: one-way (%.17g, %.17g) for direction (%.17g, %.17g), not its unit vector (%.17g, %.17g)", what, u.x,
             u.y, v.x, v.y, want.x, want.y);
}

/* The status c2d_static_set_set_transform(set, i, p, a) must give for a valid member i (*mag: the
 * largest coordinate magnitude of its box there): not finite, out of range, or reaching past the
 * range ("when the shape would reach beyond C2D_MAX_COORDINATE", predicted on a copy), else ok. */
static c2d_status fz_place_status(const fz_state *st, int i, c2d_vec2 p, double a, double *mag)
{
    c2d_status want = fz_vec_status(p);
    if (want == C2D_OK)
        want = fz_number_status(a);
    if (want != C2D_OK)
        return want;
    c2d_shape *t = NULL;
    c2d_aabb bx;
    FZ_CHECK(c2d_shape_clone(st->set_shape[i], &t) == C2D_OK && c2d_shape_set_transform(t, p, a) == C2D_OK &&
                 c2d_shape_get_aabb(t, &bx) == C2D_OK,
             "placing a copy of member %d failed", i);
    c2d_shape_destroy(t);
    *mag = fmax(fmax(fabs(bx.min.x), fabs(bx.min.y)), fmax(fabs(bx.max.x), fabs(bx.max.y)));
    return *mag <= C2D_MAX_COORDINATE ? C2D_OK : C2D_ERR_RANGE;
}

/* Re-places member i (c2d_static_set_set_transform): anywhere at any angle, by a step from where it
 * stands, where its motion takes it in a step of dt (what a game does after each step), or moved
 * without turning; with indices and numbers out of range too. Accepted exactly when the set and index
 * are valid, the numbers finite and within C2D_MAX_COORDINATE, and the member's box there stays within
 * it (predicted on a copy); then get_transform gives what was set (position to the bit, the angle as a
 * number) and the harness's copy follows. Rejected: the status the header names, and nothing changes
 * (placements, velocities, one-way directions, seam flags). With mode bit 2 the member is put back
 * where it stood, and the whole set must be as before, seams included (only the seams around its two
 * places are recomputed, so this finds seams left stale). */
void op_set_place(fz_state *st)
{
    uint8_t mode = fz_byte(st);
    int i = fz_member_index(st, mode);
    int member = st->set && i >= 0 && i < st->set_n;
    int was_uniform = member && st->set_os[i] && !st->set_seg[i];
    c2d_vec2 cur = fz_v(0, 0), vel = fz_v(0, 0), p;
    double cur_a = 0, a;
    if (member) {
        c2d_shape_get_position(st->set_shape[i], &cur);
        c2d_shape_get_angle(st->set_shape[i], &cur_a);
        vel = st->set_vel[i];
    }
    switch (mode & 3) {
    case 0:
        p = fz_vec(st);
        a = fz_number(st);
        break;
    case 1: {
        c2d_vec2 dd = fz_vec(st);
        p = fz_v(cur.x + dd.x, cur.y + dd.y);
        a = cur_a + fz_number(st);
        break;
    }
    case 2: {
        double dt = fz_number(st);
        p = fz_v(cur.x + vel.x * dt, cur.y + vel.y * dt);
        a = cur_a;
        /* A turning member goes where its turn takes it too, as a game re-places a flipper after a
         * step: turned by w dt about its pivot, which moves by velocity * dt (fz_posed's place). */
        if (member && fz_member_turns(st, i)) {
            c2d_motion mo = fz_member_motion(st, i);
            c2d_vec2 c = fz_pivot_world(st->set_shape[i], &mo), r = fz_sub(cur, c);
            double wt = mo.angular_velocity * dt, cw = cos(wt), sw = sin(wt);
            p = fz_v(c.x + vel.x * dt + (cw * r.x - sw * r.y), c.y + vel.y * dt + (sw * r.x + cw * r.y));
            a = cur_a + wt;
        }
        break;
    }
    default:
        p = fz_vec(st);
        a = cur_a;
        break;
    }
    if (fz_trace)
        fprintf(stderr, " <%d> -> (%.17g, %.17g) angle %.17g", i, p.x, p.y, a);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_set_transform(st->set, i, p, a);
    fz_check_status(s);
    double mag = 0;
    c2d_status want = !st->set ? C2D_ERR_NULL : !member ? C2D_ERR_RANGE : fz_place_status(st, i, p, a, &mag);
    if (want != C2D_OK) {
        FZ_CHECK(s == want, "set_transform(%d, (%.17g, %.17g), %.17g) gave %d, not %d", i, p.x, p.y, a, (int)s,
                 (int)want);
        fz_set_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected set_transform changed the set");
        return;
    }
    FZ_CHECK(s == C2D_OK, "set_transform(%d, (%.17g, %.17g), %.17g) rejected with %d", i, p.x, p.y, a, (int)s);
    c2d_vec2 got;
    double got_a;
    FZ_CHECK(c2d_static_set_get_transform(st->set, i, &got, &got_a) == C2D_OK && fz_same_bits(got.x, p.x) &&
                 fz_same_bits(got.y, p.y) && got_a == a,
             "member %d placed at (%.17g, %.17g) angle %.17g stands at (%.17g, %.17g) angle %.17g", i, p.x, p.y, a,
             got.x, got.y, got_a);
    FZ_CHECK(c2d_shape_set_transform(st->set_shape[i], p, a) == C2D_OK, "the copy of member %d cannot follow", i);
    fz_set_chain_faces(st, i);
    (void)mag;
    fz_set_snapshot(st, &after);
    /* A one-sided chain given one direction for all its segments gets back its own directions when
     * it is re-placed (known, see fz_set_chain_faces): nothing to compare after putting it back. */
    if (!(mode & 4) || (was_uniform && !fz_strict_chain))
        return;
    /* A set may be made of shapes that reach past the range (only their positions must lie in it):
     * such a member cannot be put back. */
    want = fz_place_status(st, i, before.pos[i], before.angle[i], &mag);
    s = c2d_static_set_set_transform(st->set, i, before.pos[i], before.angle[i]);
    FZ_CHECK(s == want, "putting member %d back gave %d, not %d", i, (int)s, (int)want);
    if (s != C2D_OK)
        return;
    FZ_CHECK(c2d_shape_set_transform(st->set_shape[i], before.pos[i], before.angle[i]) == C2D_OK,
             "the copy of member %d cannot go back", i);
    fz_set_chain_faces(st, i);
    fz_set_snapshot(st, &after);
    for (int k = 0; k < st->set_n; k++)
        for (int e = 0; e < FZ_SET_EDGES; e++)
            FZ_CHECK(before.seam[k][e] == after.seam[k][e],
                     "member %d moved away and back: edge %d of shape %d is %sa seam now", i, e, k,
                     after.seam[k][e] == 2 ? "" : "no longer ");
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "member %d moved away and back: the set is not as it was", i);
}

/* Sets a member's velocity or one-way direction (anything, zero, -0, or along y, with NaN, huge and
 * denormal numbers among them), with indices out of range too. Rejected: the header's status, nothing
 * changes. Accepted: the getter gives the velocity as set, or the direction's unit vector (zero for
 * zero), and the set stays consistent (the snapshot's checks). With mode bit 0 the old value is set
 * again, and the set must be as before, seams included (a one-way direction given back as it was
 * reported may normalise an ulp away: then only its value is compared). */
static void op_set_member_vec(fz_state *st, int one_way)
{
    const char *what = one_way ? "set_one_way" : "set_velocity";
    uint8_t mode = fz_byte(st);
    int i = fz_member_index(st, mode);
    int member = st->set && i >= 0 && i < st->set_n;
    c2d_vec2 v;
    switch ((mode >> 1) & 3) {
    case 0:
        v = fz_vec(st);
        break;
    case 1:
        v = fz_v(0, 0);
        break;
    case 2:
        v = fz_v(-0.0, -0.0);
        break;
    default:
        v = fz_v(0, fz_number(st));
        break;
    }
    if (fz_trace)
        fprintf(stderr, " <%d> (%.17g, %.17g)", i, v.x, v.y);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    int was_seg = member && st->set_seg[i];
    c2d_status s = one_way ? c2d_static_set_set_one_way(st->set, i, v) : c2d_static_set_set_velocity(st->set, i, v);
    fz_check_status(s);
    c2d_status want = !st->set ? C2D_ERR_NULL : !member ? C2D_ERR_RANGE : fz_vec_status(v);
    if (want != C2D_OK || s == C2D_ERR_NO_MEMORY) {
        FZ_CHECK(s == want || s == C2D_ERR_NO_MEMORY, "%s(%d, (%.17g, %.17g)) gave %d, not %d", what, i, v.x, v.y,
                 (int)s, (int)want);
        fz_set_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected %s changed the set", what);
        c2d_vec2 out;
        memset(&out, FZ_POISON, sizeof out);
        c2d_status g = one_way ? c2d_static_set_get_one_way(st->set, i, &out) : c2d_static_set_get_velocity(st->set, i, &out);
        FZ_CHECK(member ? g == C2D_OK : (g == (st->set ? C2D_ERR_RANGE : C2D_ERR_NULL) && fz_is_poison(&out, sizeof out)),
                 "get after a rejected %s gave %d", what, (int)g);
        return;
    }
    FZ_CHECK(s == C2D_OK, "%s(%d, (%.17g, %.17g)) rejected with %d", what, i, v.x, v.y, (int)s);
    c2d_vec2 got;
    if (one_way) {
        FZ_CHECK(c2d_static_set_get_one_way(st->set, i, &got) == C2D_OK, "get_one_way failed");
        fz_check_one_way_dir(v, got, "set_one_way");
        st->set_ow[i] = got;
        st->set_seg[i] = 0; /* a one-sided chain's segments all block along it now */
    } else {
        FZ_CHECK(c2d_static_set_get_velocity(st->set, i, &got) == C2D_OK && fz_vec_eq(got, v),
                 "velocity (%.17g, %.17g) set, (%.17g, %.17g) got", v.x, v.y, got.x, got.y);
        st->set_vel[i] = v;
    }
    fz_set_snapshot(st, &after);
    /* A one-sided chain whose segments faced their own ways cannot be given those back through the
     * API (one direction applies to all): nothing to put back then. */
    if (!(mode & 1) || (one_way && was_seg))
        return;
    c2d_vec2 old = one_way ? before.ow[i] : before.vel[i];
    s = one_way ? c2d_static_set_set_one_way(st->set, i, old) : c2d_static_set_set_velocity(st->set, i, old);
    if (s == C2D_ERR_NO_MEMORY)
        return; /* cannot happen (the array exists once a value was stored), but allowed by the header */
    FZ_CHECK(s == C2D_OK, "%s back to (%.17g, %.17g) gave %d", what, old.x, old.y, (int)s);
    if (one_way) {
        FZ_CHECK(c2d_static_set_get_one_way(st->set, i, &got) == C2D_OK, "get_one_way failed");
        fz_check_one_way_dir(old, got, "set_one_way back");
        st->set_ow[i] = got;
        if (!fz_same_bits(got.x, old.x) || !fz_same_bits(got.y, old.y))
            return;
    } else {
        st->set_vel[i] = old;
    }
    fz_set_snapshot(st, &after);
    for (int k = 0; k < st->set_n; k++)
        for (int e = 0; e < FZ_SET_EDGES; e++)
            FZ_CHECK(before.seam[k][e] == after.seam[k][e], "%s of member %d and back: edge %d of shape %d is %sa seam now",
                     what, i, e, k, after.seam[k][e] == 2 ? "" : "no longer ");
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "%s of member %d and back: the set is not as it was", what, i);
}

void op_set_velocity(fz_state *st)
{
    op_set_member_vec(st, 0);
}

void op_set_one_way(fz_state *st)
{
    op_set_member_vec(st, 1);
}

/* Gives member i a rigid motion (c2d_static_set_set_motion): fz_motion's (a turn of up to 20 radians
 * per unit of time about its position, a vertex or an edge's middle, or any numbers, NaN and huge
 * ones among them) or NULL, with indices out of range too. Rejected: ERR_NULL, ERR_RANGE for the
 * index, or the status of one of the motion's bad numbers (fz_motion_allowed: a pivot that stands
 * beyond the range too), and nothing changes. Accepted: get_motion gives the motion as set (its pivot
 * as fz_strict_pivot says), get_velocity its velocity, and the model follows: the set checks then
 * place the member where its turn takes it during every sweep, move and ball step, and a turning
 * convex member has no seams (fz_set_snapshot). With mode bit 0 the motion get_motion gave before is
 * set again, and the whole set, seams included, must be as it was. */
void op_set_motion(fz_state *st)
{
    uint8_t mode = fz_byte(st);
    int i = fz_member_index(st, mode);
    int member = st->set && i >= 0 && i < st->set_n;
    c2d_motion m;
    const c2d_motion *pm = fz_motion(st, member ? st->set_shape[i] : NULL, &m);
    if (fz_trace)
        fprintf(stderr, " <%d>", i);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_set_motion(st->set, i, pm);
    fz_check_status(s);
    unsigned allowed = !st->set ? 1u << C2D_ERR_NULL : !member ? 1u << C2D_ERR_RANGE : fz_motion_allowed(st->set_shape[i], pm);
    if (s != C2D_OK) {
        FZ_CHECK(((allowed >> (unsigned)s) & 1u) || (s == C2D_ERR_NO_MEMORY && member),
                 "set_motion(%d) gave %d (allowed mask %#x)", i, (int)s, allowed);
        fz_set_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected set_motion changed the set");
        c2d_motion out;
        memset(&out, FZ_POISON, sizeof out);
        c2d_status g = c2d_static_set_get_motion(st->set, i, &out);
        FZ_CHECK(member ? g == C2D_OK : (g == (st->set ? C2D_ERR_RANGE : C2D_ERR_NULL) && fz_is_poison(&out, sizeof out)),
                 "get_motion after a rejected set_motion gave %d", (int)g);
        return;
    }
    FZ_CHECK(allowed & 1u, "set_motion(%d) of a bad motion (allowed mask %#x) accepted", i, allowed);
    st->set_vel[i] = m.velocity;
    st->set_w[i] = m.angular_velocity;
    st->set_pivot[i] = m.pivot;
    /* The library keeps the pivot as set (it once dropped it while no member turned). */
    st->set_pivot_get[i] = m.pivot;
    if (m.angular_velocity != 0)
        st->set_spun = 1;
    if (fz_trace)
        fprintf(stderr, " -> turns at %.17g about (%.17g, %.17g)", m.angular_velocity, m.pivot.x, m.pivot.y);
    fz_set_snapshot(st, &after);
    if (!(mode & 1))
        return;
    c2d_motion old;
    memset(&old, 0, sizeof old);
    old.velocity = before.vel[i];
    old.angular_velocity = before.w[i];
    old.pivot = before.pivot[i];
    s = c2d_static_set_set_motion(st->set, i, &old);
    if (s == C2D_ERR_NO_MEMORY)
        return; /* cannot happen (the arrays exist once a value was stored), but allowed by the header */
    /* A pivot read back is where it was accepted before, unless the member has been re-placed since
     * so that it now stands beyond the range. */
    unsigned back = fz_motion_allowed(st->set_shape[i], &old);
    FZ_CHECK(s == C2D_OK || ((back >> (unsigned)s) & 1u), "set_motion back to the old motion gave %d", (int)s);
    if (s != C2D_OK)
        return;
    /* (A pivot read back as (0, 0) for a motion without a turn was not kept: it moved nothing.) */
    st->set_vel[i] = old.velocity;
    st->set_w[i] = old.angular_velocity;
    st->set_pivot[i] = old.pivot;
    st->set_pivot_get[i] = old.pivot;
    fz_set_snapshot(st, &after);
    for (int k = 0; k < st->set_n; k++)
        for (int e = 0; e < FZ_SET_EDGES; e++)
            FZ_CHECK(before.seam[k][e] == after.seam[k][e], "set_motion of member %d and back: edge %d of shape %d is %sa seam now",
                     i, e, k, after.seam[k][e] == 2 ? "" : "no longer ");
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "set_motion of member %d and back: the set is not as it was", i);
}
