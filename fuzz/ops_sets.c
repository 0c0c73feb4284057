/* ops_sets.c - static sets (ops 21-25): made from copies of the slots, enabled and marked, swept
 * through and pushed out of, with the harness's copies of the members as the model every set call is
 * checked against (snapshots, seams, clearances, the size of the scene). */
#include "fz.h"

/* ---- static sets ---------------------------------------------------------------------------- */

/* The member getters of member i, checked against the harness's model: get_transform is where the
 * harness's copy stands (position to the bit, angle as a number: an unchanged angle of 0 keeps its
 * sign when -0 is set, as c2d_shape_set_transform does), velocity and one-way as last set. */
static void fz_set_members_snapshot(const fz_state *st, fz_set_snap *sn, int i)
{
    c2d_vec2 pos, cp;
    double angle, ca, only_angle = NAN;
    FZ_CHECK(c2d_static_set_get_transform(st->set, i, &pos, &angle) == C2D_OK, "get_transform(%d) failed", i);
    FZ_CHECK(c2d_static_set_get_transform(st->set, i, NULL, &only_angle) == C2D_OK &&
                 fz_same_bits(only_angle, angle),
             "get_transform(%d) with no position gave another angle", i);
    c2d_shape_get_position(st->set_shape[i], &cp);
    c2d_shape_get_angle(st->set_shape[i], &ca);
    FZ_CHECK(fz_same_bits(pos.x, cp.x) && fz_same_bits(pos.y, cp.y) && fz_same_bits(angle, ca),
             "member %d stands at (%.17g, %.17g) angle %.17g, not (%.17g, %.17g) angle %.17g", i, pos.x, pos.y, angle,
             cp.x, cp.y, ca);
    FZ_CHECK(c2d_static_set_get_velocity(st->set, i, &sn->vel[i]) == C2D_OK &&
                 fz_vec_eq(sn->vel[i], st->set_vel[i]),
             "member %d has velocity (%.17g, %.17g), not (%.17g, %.17g)", i, sn->vel[i].x, sn->vel[i].y,
             st->set_vel[i].x, st->set_vel[i].y);
    FZ_CHECK(c2d_static_set_get_one_way(st->set, i, &sn->ow[i]) == C2D_OK && fz_vec_eq(sn->ow[i], st->set_ow[i]),
             "member %d is one-way along (%.17g, %.17g), not (%.17g, %.17g)", i, sn->ow[i].x, sn->ow[i].y,
             st->set_ow[i].x, st->set_ow[i].y);
    sn->pos[i] = pos;
    sn->angle[i] = angle;
    /* The motion: the velocity get_velocity gives, the angular velocity and pivot as set (the pivot
     * as the library keeps it unless FZ_STRICT_MOTION_PIVOT=1: see fz_strict_pivot). */
    c2d_motion mo;
    FZ_CHECK(c2d_static_set_get_motion(st->set, i, &mo) == C2D_OK && fz_vec_eq(mo.velocity, sn->vel[i]) &&
                 mo.angular_velocity == st->set_w[i] && fz_vec_eq(mo.pivot, st->set_pivot_get[i]),
             "member %d has motion v (%.17g, %.17g) w %.17g pivot (%.17g, %.17g), not w %.17g pivot (%.17g, %.17g)", i,
             mo.velocity.x, mo.velocity.y, mo.angular_velocity, mo.pivot.x, mo.pivot.y, st->set_w[i],
             st->set_pivot_get[i].x, st->set_pivot_get[i].y);
    sn->w[i] = mo.angular_velocity;
    sn->pivot[i] = mo.pivot;
    FZ_CHECK(c2d_static_set_get_transform(st->set, i, NULL, NULL) == C2D_ERR_NULL &&
                 c2d_static_set_get_velocity(st->set, i, NULL) == C2D_ERR_NULL &&
                 c2d_static_set_get_one_way(st->set, i, NULL) == C2D_ERR_NULL &&
                 c2d_static_set_get_motion(st->set, i, NULL) == C2D_ERR_NULL,
             "a member getter accepted a NULL out");
}

/* The shortest edge of any part of s. */
static double fz_min_part_edge(const c2d_shape *s)
{
    double m = INFINITY;
    for (int k = 0; k < fz_part_count(s); k++) {
        c2d_vec2 v[FZ_MAX_VERTS];
        int n = 0;
        fz_part(s, k, v, FZ_MAX_VERTS, &n);
        for (int i = 0; i < n; i++)
            m = fmin(m, fz_len(fz_sub(v[(i + 1) % n], v[i])));
    }
    return m;
}

/* The joints of a concave polygon in a set: an edge of one part that another part has too (its ends
 * the other's ends in reverse order, within the rounding of placing each part) lies inside the
 * polygon and is always a seam, whatever else the set holds ("whose joints are always seams"). Edges
 * shorter than a few such roundings are left out (the seam test caps the gap at a quarter of an
 * edge), and so are the joints of a part that rounding has made as thin as that: where the outline
 * comes back to within rounding of its own edge (a pinch), the decomposition makes a triangle there,
 * and once it is flat its joints lie on the outline, which is surface. */
static void fz_check_joint_seams(const c2d_shape *s, const unsigned char *seam, int i)
{
    if (c2d_shape_get_type(s) != C2D_SHAPE_CONCAVE)
        return;
    static c2d_vec2 a[FZ_SET_EDGES], b[FZ_SET_EDGES];
    static int owner[FZ_SET_EDGES];
    static double width[FZ_SET_EDGES];
    int ne = 0;
    for (int k = 0; k < fz_part_count(s); k++) {
        c2d_vec2 v[FZ_MAX_VERTS];
        int n = 0;
        fz_part(s, k, v, FZ_MAX_VERTS, &n);
        if (k < FZ_SET_EDGES)
            width[k] = fz_points_width(v, n);
        for (int e = 0; e < n && ne < FZ_SET_EDGES; e++, ne++) {
            a[ne] = v[e];
            b[ne] = v[(e + 1) % n];
            owner[ne] = k;
        }
    }
    double tol = FZ_REL_TOL * fz_shape_scale(s);
    for (int e = 0; e < ne; e++) {
        if (!(fz_len(fz_sub(b[e], a[e])) > 8 * tol) || !(width[owner[e]] > 8 * tol))
            continue;
        for (int f = 0; f < ne; f++)
            if (owner[f] != owner[e] && fz_len(fz_sub(a[e], b[f])) <= tol && fz_len(fz_sub(b[e], a[f])) <= tol) {
                if (!(width[owner[f]] > 8 * tol))
                    break; /* the other part is flat: the joint may be outline */
                FZ_CHECK(seam[e] == 2, "edge %d of concave member %d, a joint between parts %d and %d, is no seam", e,
                         i, owner[e], owner[f]);
                break;
            }
    }
}

void fz_set_snapshot(const fz_state *st, fz_set_snap *sn)
{
    memset(sn, 0, sizeof *sn);
    if (!st->set)
        return;
    FZ_CHECK(c2d_static_set_get_count(st->set, &sn->count) == C2D_OK && sn->count == st->set_n, "set count %d, not %d",
             sn->count, st->set_n);
    for (int i = 0; i < st->set_n; i++) {
        /* A chain's or concave polygon's edges are its parts', part 0's first. */
        int ne = fz_edge_count(st->set_shape[i]);
        FZ_CHECK(ne <= FZ_SET_EDGES, "shape %d has %d edges", i, ne);
        for (int e = 0; e < ne; e++) {
            int out = -1;
            FZ_CHECK(c2d_static_set_is_seam(st->set, i, e, &out) == C2D_OK && (out == 0 || out == 1),
                     "is_seam(%d, %d) failed or wrote %d", i, e, out);
            sn->seam[i][e] = (unsigned char)(out + 1);
        }
        int out = 7;
        FZ_CHECK(c2d_static_set_is_seam(st->set, i, ne, &out) == C2D_ERR_RANGE && out == 7,
                 "is_seam past the last edge accepted");
        FZ_CHECK(c2d_static_set_is_seam(st->set, i, -1, &out) == C2D_ERR_RANGE && out == 7,
                 "is_seam of edge -1 accepted");
        fz_set_members_snapshot(st, sn, i);
        /* Shapes without area neither make nor get seams... and a shape with a radius has none at all,
         * wherever it is moved. */
        double r = 0;
        c2d_shape_get_radius(st->set_shape[i], &r);
        for (int e = 0; r > 0 && e < FZ_SET_EDGES; e++)
            FZ_CHECK(sn->seam[i][e] != 2, "rounded shape %d has a seam on edge %d", i, e);
        /* A turning shape shares no seams with others: a convex one has none (a compound's joints stay
         * seams, checked below). */
        for (int e = 0; fz_member_turns(st, i) && !fz_is_compound(st->set_shape[i]) && e < FZ_SET_EDGES; e++)
            FZ_CHECK(sn->seam[i][e] != 2, "turning member %d (w %.17g) has a seam on edge %d", i, st->set_w[i], e);
        /* Disabled or not (a disabled member keeps its flags). The parts join within the caller's
         * tolerance, or by default their own (1e-9 of their coordinates, whatever else the set holds). */
        double jt = st->set_seam_tol > 0 ? st->set_seam_tol : 1e-9 * (1 + fz_shape_scale(st->set_shape[i]));
        if (fz_strict_joints || 16 * jt <= fz_min_part_edge(st->set_shape[i]))
            fz_check_joint_seams(st->set_shape[i], sn->seam[i], i);
    }
    /* Members out of range: C2D_ERR_RANGE, nothing written. */
    c2d_vec2 v;
    double a;
    c2d_motion mo;
    memset(&v, FZ_POISON, sizeof v);
    memset(&a, FZ_POISON, sizeof a);
    memset(&mo, FZ_POISON, sizeof mo);
    for (int k = 0; k < 2; k++) {
        int i = k ? st->set_n : -1;
        FZ_CHECK(c2d_static_set_get_transform(st->set, i, &v, &a) == C2D_ERR_RANGE &&
                     c2d_static_set_get_velocity(st->set, i, &v) == C2D_ERR_RANGE &&
                     c2d_static_set_get_one_way(st->set, i, &v) == C2D_ERR_RANGE &&
                     c2d_static_set_get_motion(st->set, i, &mo) == C2D_ERR_RANGE,
                 "a member getter accepted member %d of %d", i, st->set_n);
        FZ_CHECK(fz_is_poison(&v, sizeof v) && fz_is_poison(&a, sizeof a) && fz_is_poison(&mo, sizeof mo),
                 "a member getter wrote on error");
    }
}

void fz_set_free(fz_state *st)
{
    /* A world must not hold a destroyed set as its level: give it none first. */
    if (st->level && st->world)
        FZ_CHECK(c2d_world_set_level(st->world, NULL) == C2D_OK, "unsetting the world's level failed");
    st->level = 0;
    c2d_static_set_destroy(st->set);
    st->set = NULL;
    for (int i = 0; i < st->set_n; i++)
        c2d_shape_destroy(st->set_shape[i]);
    st->set_n = 0;
}

/* Adds a copy of s to the list of shapes handed to c2d_static_set_new. */
static void fz_set_push(c2d_shape **list, int *n, const c2d_shape *s)
{
    if (*n < FZ_SET_MAX && s && c2d_shape_clone(s, &list[*n]) == C2D_OK)
        (*n)++;
}

/* A one-sided chain in the set whose segments block from their own right (as made, or re-placed):
 * c2d_static_set_get_one_way reports its first segment's, the unit vector right of it where it now
 * stands (within a few ulps of the harness's own; the model keeps the library's). A direction given
 * with c2d_static_set_set_one_way applies to every segment and should stay when the chain is
 * re-placed; the library drops it then (fuzz/known/set-one-sided-chain-forgets-its-one-way), and
 * unless FZ_STRICT_CHAIN_ONE_WAY=1 the model does so too, so that fuzzing goes on. */
void fz_set_chain_faces(fz_state *st, int i)
{
    if (!st->set_os[i])
        return;
    if (!st->set_seg[i]) {
        if (fz_strict_chain)
            return;
        st->set_seg[i] = 1;
    }
    c2d_vec2 got, right = fz_chain_right(st->set_shape[i], 0);
    FZ_CHECK(c2d_static_set_get_one_way(st->set, i, &got) == C2D_OK, "get_one_way(%d) failed", i);
    /* A first segment whose ends round to one point where it now stands has no side: the library
     * keeps the direction it had (any unit vector, or zero, is taken). */
    if (right.x == 0 && right.y == 0)
        FZ_CHECK((got.x == 0 && got.y == 0) || fabs(fz_len(got) - 1) <= 1e-15,
                 "one-sided chain's collapsed first segment: one-way (%.17g, %.17g)", got.x, got.y);
    else
        fz_check_one_way_dir(right, got, "one-sided chain's first segment");
    st->set_ow[i] = got;
}

/* A static set from chosen live slots plus, optionally, a row of touching tiles (so that seams arise),
 * and the bad inputs of c2d_static_set_new. */
void op_set_new(fz_state *st)
{
    uint8_t pick = fz_byte(st), mode = fz_byte(st);
    c2d_shape *list[FZ_SET_MAX];
    int n = 0, list_os[FZ_SET_MAX];
    memset(list_os, 0, sizeof list_os);
    for (int i = 0; i < FZ_SLOTS; i++)
        if (pick & (1u << i)) {
            fz_set_push(list, &n, st->slot[i]);
            if (n > 0 && st->slot[i])
                list_os[n - 1] = st->model[i].kind == C2D_SHAPE_CHAIN && st->model[i].one_sided;
        }
    if (mode & 1) {
        int k = 2 + fz_byte(st) % 7;
        c2d_vec2 o = fz_vec(st);
        double w = fz_number(st), h = fz_number(st), a = (mode & 2) ? fz_number(st) : 0.0;
        int column = (mode & 0x80) != 0;
        for (int i = 0; i < k && n < FZ_SET_MAX; i++) {
            double c = cos(a), s = sin(a), step = column ? h : w;
            double dx = column ? -s : c, dy = column ? c : s;
            c2d_shape *t = NULL;
            if (c2d_rect_new(o.x + i * step * dx, o.y + i * step * dy, w, h, a, &t) == C2D_OK)
                list[n++] = t;
        }
    }
    c2d_static_set_options opt;
    memset(&opt, 0, sizeof opt);
    int use_opt = (mode & 4) != 0;
    if (use_opt) {
        opt.seam_tolerance = (mode & 0x40) ? fz_number(st) : 0.0;
        opt.no_auto_seams = (mode & 8) != 0;
    }
    int variant = (mode >> 4) & 3; /* 0, 1: valid; 2: n = -1; 3: a NULL element */
    const c2d_shape *arg[FZ_SET_MAX + 1];
    for (int i = 0; i < n; i++)
        arg[i] = list[i];
    int pass_n = n;
    if (variant == 2)
        pass_n = -1 - (int)(mode & 0x40) * 1000;
    else if (variant == 3)
        arg[pass_n++] = NULL;
    int ok = variant < 2 && (!use_opt || (isfinite(opt.seam_tolerance) && opt.seam_tolerance >= 0 &&
                                          opt.seam_tolerance <= C2D_MAX_COORDINATE));
    /* A refused seam tolerance with a chain or concave polygon among the shapes leaks (known bug,
     * FZ_STRICT_MISC): not asked by default, so that the leak checker does not stop the fuzzing. */
    int has_compound = 0;
    for (int i = 0; i < n; i++)
        has_compound |= fz_is_compound(list[i]);
    if (variant < 2 && !ok && has_compound && !fz_strict_misc) {
        for (int i = 0; i < n; i++)
            c2d_shape_destroy(list[i]);
        return;
    }
    c2d_static_set *out = (c2d_static_set *)(void *)fz_sentinel();
    c2d_status s = c2d_static_set_new(arg, pass_n, use_opt ? &opt : NULL, &out);
    fz_check_status(s);
    FZ_CHECK(c2d_static_set_new(arg, pass_n, use_opt ? &opt : NULL, NULL) == C2D_ERR_NULL, "set_new to NULL accepted");
    if (n > 0)
        FZ_CHECK(c2d_static_set_new(NULL, n, NULL, &out) == C2D_ERR_NULL, "set_new of NULL shapes accepted");
    if (!ok) {
        FZ_CHECK(s != C2D_OK, "bad static set accepted (variant %d, tolerance %g)", variant, opt.seam_tolerance);
        FZ_CHECK(out == (c2d_static_set *)(void *)fz_sentinel(), "rejected set_new wrote *out");
        for (int i = 0; i < n; i++)
            c2d_shape_destroy(list[i]);
        return;
    }
    FZ_CHECK(s == C2D_OK || s == C2D_ERR_NO_MEMORY, "valid static set rejected with %d", (int)s);
    if (s != C2D_OK) {
        for (int i = 0; i < n; i++)
            c2d_shape_destroy(list[i]);
        return;
    }
    fz_set_free(st);
    st->set = out;
    st->set_n = n;
    st->set_seam_tol = use_opt ? opt.seam_tolerance : 0.0;
    st->set_mag = 0;
    st->set_spun = 0;
    for (int i = 0; i < n; i++) {
        st->set_shape[i] = list[i];
        st->set_on[i] = 1;
        st->set_vel[i] = st->set_ow[i] = st->set_pivot[i] = st->set_pivot_get[i] = fz_v(0, 0);
        st->set_w[i] = 0;
        st->set_user[i] = 0;
        st->set_mag = fmax(st->set_mag, fz_shape_scale(list[i]));
        st->set_os[i] = st->set_seg[i] = list_os[i];
        fz_set_chain_faces(st, i);
    }
    fz_set_snap sn;
    fz_set_snapshot(st, &sn);
}

/* An index for a set call: usually valid, sometimes -1 or n (rejected). */
int fz_set_index(fz_state *st)
{
    int n = st->set_n;
    int k = (int)(fz_byte(st) % (unsigned)(n + 2)) - 1;
    if (fz_trace)
        fprintf(stderr, " <%d>", k);
    return k;
}

void op_set_enable(fz_state *st)
{
    int i = fz_set_index(st);
    uint8_t b = fz_byte(st);
    int enabled = (b & 0x80) ? (int)(int8_t)b : (b & 1);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_set_enabled(st->set, i, enabled);
    fz_check_status(s);
    int ok = st->set && i >= 0 && i < st->set_n;
    if (ok && s == C2D_OK)
        st->set_on[i] = enabled != 0; /* before the snapshot, which checks enabled members' joints */
    fz_set_snapshot(st, &after);
    if (!ok) {
        FZ_CHECK(s != C2D_OK, "bad set_enabled accepted");
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected set_enabled changed the set");
        return;
    }
    FZ_CHECK(s == C2D_OK, "set_enabled rejected with %d", (int)s);
}

void op_set_mark(fz_state *st)
{
    int i = fz_set_index(st), j = fz_set_index(st);
    double tol = fz_number(st);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_mark_neighbours(st->set, i, j, tol);
    fz_check_status(s);
    int ok = st->set && i >= 0 && j >= 0 && i < st->set_n && j < st->set_n && i != j && fz_ok_number(tol) && tol > 0;
    fz_set_snapshot(st, &after);
    if (!ok) {
        FZ_CHECK(s != C2D_OK, "bad mark_neighbours accepted");
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected mark_neighbours changed the set");
        return;
    }
    FZ_CHECK(s == C2D_OK || s == C2D_ERR_NO_MEMORY, "mark_neighbours rejected with %d", (int)s);
    /* Marking only adds seams. */
    for (int k = 0; k < st->set_n; k++)
        for (int e = 0; e < FZ_SET_EDGES; e++)
            FZ_CHECK(!(before.seam[k][e] == 2 && after.seam[k][e] == 1) || !st->set_on[k] || k == i || k == j,
                     "mark_neighbours(%d, %d) removed the seam of edge %d of shape %d", i, j, e, k);
}

/* A member moves: it has a velocity or turns. */
int fz_member_moves(const fz_state *st, int i)
{
    return st->set_vel[i].x != 0 || st->set_vel[i].y != 0 || st->set_w[i] != 0;
}

int fz_member_turns(const fz_state *st, int i)
{
    return st->set_w[i] != 0;
}

/* Member i's motion as set (velocity, angular velocity, the pivot the library turns it about). */
c2d_motion fz_member_motion(const fz_state *st, int i)
{
    c2d_motion m;
    memset(&m, 0, sizeof m);
    m.velocity = st->set_vel[i];
    m.angular_velocity = st->set_w[i];
    m.pivot = st->set_pivot[i];
    return m;
}

/* Member i as it stands at time tm of a call (the calls sweep members by their motions but do not
 * move them): *out is the harness's copy itself when it stands still then (no motion, or tm = 0),
 * else a new shape (*owned, for the caller to destroy) placed where its motion has taken it (fz_posed:
 * position + velocity * tm, and a turn of w tm about its pivot). 0 when that place cannot be
 * represented (the motion was valid; only that sample cannot be placed) or, for a turning member,
 * computed to within the tolerance of its own motion (fz_pose_exact_enough: a member standing at an
 * angle of a million radians). */
int fz_member_at(const fz_state *st, int i, double tm, const c2d_shape **out, c2d_shape **owned)
{
    *owned = NULL;
    *out = st->set_shape[i];
    if (!fz_member_moves(st, i) || tm == 0)
        return 1;
    c2d_motion m = fz_member_motion(st, i);
    if (fz_member_turns(st, i) &&
        !fz_pose_exact_enough(st->set_shape[i], &m, tm,
                              FZ_REL_TOL * 4 * (1 + fz_motion_scale(st->set_shape[i], &m))))
        return 0;
    *owned = fz_posed(st->set_shape[i], &m, tm);
    *out = *owned;
    return *owned != NULL;
}

/* One-way: a direction set, or a one-sided chain whose segments block from their own right. */
int fz_member_one_way(const fz_state *st, int i)
{
    return st->set_seg[i] || st->set_ow[i].x != 0 || st->set_ow[i].y != 0;
}

/* Smallest signed distance from s (moved by k * d) to the enabled shapes of the set whose response
 * stops it (resp NULL: all); *which gets the shape, -1 if none. NAN when s cannot be placed there.
 * Each member stands where its motion has taken it at time tm of the call (fz_member_at: position +
 * velocity * tm, turned about its pivot; the calls do not move members, but sweep them by that much). One-way members are left out: a
 * mover may lie inside one (it passes through from below and from the sides, and push-outs ignore
 * them), so no never-inside property holds for them. A moving member whose place at tm leaves the
 * coordinate range is left out too (the motion was valid; only that sample cannot be placed). */
double fz_set_clearance(const fz_state *st, const c2d_shape *s, c2d_vec2 d, double k, double tm,
                        const c2d_response *resp, int *which)
{
    double best = INFINITY;
    *which = -1;
    c2d_shape *m = fz_moved(s, d, k);
    if (!m)
        return NAN;
    for (int i = 0; i < st->set_n; i++) {
        if (!st->set_on[i] || fz_member_one_way(st, i) ||
            (resp && (resp[i] == C2D_RESPONSE_NONE || resp[i] == C2D_RESPONSE_CROSS)))
            continue;
        const c2d_shape *at;
        c2d_shape *moved;
        if (!fz_member_at(st, i, tm, &at, &moved))
            continue;
        c2d_distance_result r;
        if (c2d_distance(m, at, &r) == C2D_OK && r.distance < best) {
            best = r.distance;
            *which = i;
        }
        c2d_shape_destroy(moved);
    }
    c2d_shape_destroy(m);
    return best;
}

/* The size of a set scene: the mover, its displacement, and every member where it stands and where
 * its velocity takes it over the call's time `horizon`, and the members as the set was made (the
 * set's touching tolerance follows the shapes as built and the moved members where they stand; a
 * member that went far and came back leaves it as it was: corpus set-tolerance-after-a-far-member-
 * came-back). */
double fz_set_scale(const fz_state *st, const c2d_shape *mover, c2d_vec2 d, double horizon)
{
    double s = fmax(fz_shape_scale(mover), fz_vec_mag(d));
    for (int i = 0; i < st->set_n; i++) {
        double m = fz_shape_scale(st->set_shape[i]);
        /* A turning member: the reach of its turn about its pivot (as the library measures it). */
        if (fz_member_turns(st, i)) {
            c2d_motion mo = fz_member_motion(st, i);
            m = fz_motion_scale(st->set_shape[i], &mo);
        }
        s = fmax(s, m + fz_vec_mag(st->set_vel[i]) * fabs(horizon));
    }
    return fmax(s, st->set_mag);
}

/* The largest speed of a point of the enabled members (0: none moves): a velocity, and a turn's w
 * times its reach. */
double fz_set_max_speed(const fz_state *st)
{
    double v = 0;
    for (int i = 0; i < st->set_n; i++)
        if (st->set_on[i]) {
            double w = 0;
            if (fz_member_turns(st, i)) {
                c2d_motion mo = fz_member_motion(st, i);
                w = fabs(st->set_w[i]) * fz_motion_scale(st->set_shape[i], &mo);
            }
            v = fmax(v, fz_len(st->set_vel[i]) + w);
        }
    return v;
}

/* c2d_sweep of mover m (moving by d) against member i moving with its velocity, or c2d_sweep_motion
 * when it turns. */
static c2d_status fz_sweep_member(const fz_state *st, const c2d_shape *m, c2d_vec2 d, int i, c2d_toi *out)
{
    if (!fz_member_turns(st, i))
        return c2d_sweep(m, d, st->set_shape[i], st->set_vel[i], out);
    c2d_motion mm, mi = fz_member_motion(st, i);
    memset(&mm, 0, sizeof mm);
    mm.velocity = d;
    return c2d_sweep_motion(m, &mm, st->set_shape[i], &mi, out);
}

/* How fast a mover moving by d and a point of member i close in, at most: their relative velocity,
 * plus a turn's w times its reach. */
static double fz_member_speed(const fz_state *st, int i, c2d_vec2 d)
{
    double v = fz_len(fz_sub(d, st->set_vel[i]));
    if (fz_member_turns(st, i)) {
        c2d_motion mo = fz_member_motion(st, i);
        v += fabs(st->set_w[i]) * fz_motion_scale(st->set_shape[i], &mo);
    }
    return v;
}

void op_set_sweep(fz_state *st)
{
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_vec2 d = fz_vec(st);
    c2d_toi r;
    int index;
    memset(&r, FZ_POISON, sizeof r);
    memset(&index, FZ_POISON, sizeof index);
    fz_set_snap before, after;
    int compound = m && fz_is_compound(m);
    if (compound)
        fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_sweep(st->set, m, d, &r, &index);
    fz_check_status(s);
    if (!st->set || !m || !fz_ok_vec(d) || compound) {
        FZ_CHECK(s != C2D_OK, "bad set sweep accepted");
        FZ_CHECK(fz_is_poison(&r, sizeof r) && fz_is_poison(&index, sizeof index), "set sweep wrote on error");
        /* A chain or concave polygon is no mover: C2D_ERR_NOT_CONVEX, and nothing changes. */
        if (st->set && compound && fz_ok_vec(d)) {
            FZ_CHECK(s == C2D_ERR_NOT_CONVEX, "set sweep of a compound mover gave %d", (int)s);
            fz_set_snapshot(st, &after);
            FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a refused set sweep changed the set");
        }
        return;
    }
    FZ_CHECK(s == C2D_OK, "set sweep rejected with %d", (int)s);
    if (fz_trace)
        fprintf(stderr, " -> state %d t %.17g index %d normal (%.17g, %.17g) depth %.17g", (int)r.state, r.t, index,
                r.normal.x, r.normal.y, r.depth);
    FZ_CHECK(c2d_static_set_sweep(st->set, m, d, NULL, &index) == C2D_ERR_NULL &&
                 c2d_static_set_sweep(st->set, m, d, &r, NULL) == C2D_ERR_NULL,
             "set sweep with a NULL out accepted");
    FZ_CHECK((int)r.state >= 0 && (int)r.state <= 2 && isfinite(r.t) && r.t >= 0 && r.t <= 1, "set sweep state %d t %g",
             (int)r.state, r.t);
    FZ_CHECK(r.state == C2D_TOI_NONE ? index == -1 : (index >= 0 && index < st->set_n && st->set_on[index]),
             "set sweep state %d with index %d", (int)r.state, index);
    /* A sweep lasts one unit of time: moving members move by their velocity over it. */
    double tol = FZ_REL_TOL * 4 * (1 + fz_set_scale(st, m, d, 1));
    int w;
    double d0 = fz_set_clearance(st, m, d, 0, 0, NULL, &w);
    if (r.state == C2D_TOI_OVERLAP) {
        /* index is the shape whose surface is the shortest way out, which need not be one the mover
         * is in (the top of the brick beside it): only some shape must be overlapped. */
        FZ_CHECK(r.t == 0 && isfinite(r.depth) && r.depth > 0, "set OVERLAP with t %g depth %g", r.t, r.depth);
        fz_check_unit(r.normal, "set sweep normal");
        FZ_CHECK(!(d0 > tol), "set OVERLAP with shape %d but the mover is %.17g clear of the set", index, d0);
        return;
    }
    FZ_CHECK(!(d0 < -tol), "set sweep state %d but the mover starts %.17g inside shape %d", (int)r.state, d0, w);
    /* Never through a shape: clear of all of them up to t. Unless the set's seam tolerance is as large
     * as the mover: a gap that the tolerance counts as a seam hides the faces beside it and stays
     * open, as the header says ("keep the tolerance below the size of your movers"). */
    c2d_aabb mb;
    c2d_shape_get_aabb(m, &mb);
    double mover_size = fmin(mb.max.x - mb.min.x, mb.max.y - mb.min.y);
    for (int k = 1; k <= 8 && !(st->set_seam_tol >= mover_size); k++) {
        double dk = fz_set_clearance(st, m, d, r.t * k / 8.0, r.t * k / 8.0, NULL, &w);
        FZ_CHECK(!(dk < -tol), "set sweep t %.17g but the mover is %.17g inside shape %d at t = %.17g", r.t, dk, w,
                 r.t * k / 8.0);
    }
    /* No earlier than the first contact of c2d_sweep with any enabled shape, moving with its velocity
     * (c2d_sweep_motion for a turning one: the set sweeps its turn as that sweeps it; seams and
     * one-way members only drop contacts). rel_len bounds how fast the mover and a point of a member
     * close in. */
    double first = 1, rel_len = fz_len(d);
    for (int i = 0; i < st->set_n; i++) {
        c2d_toi ri;
        if (st->set_on[i])
            rel_len = fmax(rel_len, fz_member_speed(st, i, d));
        if (st->set_on[i] && fz_sweep_member(st, m, d, i, &ri) == C2D_OK) {
            if (fz_trace)
                fprintf(stderr, " [sweep %d: state %d t %.17g]", i, (int)ri.state, ri.t);
            if (ri.state != C2D_TOI_NONE && ri.t < first)
                first = ri.t;
        }
    }
    /* (Starting within tolerance of touching, a start that moves in is a hit at 0 or not depending on
     * which nearby feature decides: both are valid there. So is a path that passes within tolerance of
     * a shape c2d_sweep, which is exact, sees it miss by less: the set calls that grazing a touch.) */
    const c2d_shape *at = NULL;
    c2d_shape *at_owned = NULL;
    int placed = r.state == C2D_TOI_HIT && fz_member_at(st, index, r.t, &at, &at_owned);
    double di = NAN;
    c2d_shape *mt = placed ? fz_moved(m, d, r.t) : NULL;
    c2d_distance_result dr;
    if (mt && c2d_distance(mt, at, &dr) == C2D_OK)
        di = dr.distance;
    /* A one-way chain or concave polygon blocks part by part: the mover touches the part it met, and
     * may overlap another it started in (and passes through). */
    if (mt && fz_member_one_way(st, index) && fz_is_compound(st->set_shape[index]))
        di = fz_part_distance(mt, at, fz_v(0, 0));
    c2d_shape_destroy(mt);
    /* A turning member may be met early by a motion that grazes it for most of the unit (the header's
     * "a little early (after 200 steps), never late"): an answer apart from it is allowed when
     * c2d_sweep_motion on the pair answers early too. */
    int early = 0;
    if (r.state == C2D_TOI_HIT && fz_member_turns(st, index) && !(fabs(di) <= tol)) {
        c2d_toi rp;
        const c2d_shape *pat;
        c2d_shape *powned = NULL;
        if (fz_sweep_member(st, m, d, index, &rp) == C2D_OK && rp.state == C2D_TOI_HIT &&
            fz_member_at(st, index, rp.t, &pat, &powned)) {
            c2d_shape *pm = fz_moved(m, d, rp.t);
            early = pm && c2d_distance(pm, pat, &dr) == C2D_OK && dr.distance > tol;
            c2d_shape_destroy(pm);
        }
        c2d_shape_destroy(powned);
        if (fz_trace)
            fprintf(stderr, " [turning member %d met %.3g apart; the pair's own sweep %s]", index, di,
                    early ? "early too" : "not early");
    }
    FZ_CHECK((first - r.t) * rel_len <= tol || !(d0 > tol) || fabs(di) <= tol || early,
             "set sweep t %.17g before the first contact %.17g", r.t, first);
    if (r.state == C2D_TOI_HIT) {
        fz_check_unit(r.normal, "set sweep normal");
        FZ_CHECK(isnan(di) || fabs(di) <= tol || early, "set sweep HIT on shape %d at t %.17g but %.17g apart there",
                 index, r.t, di);
        /* A one-way member blocks only where it is met from the side its direction points to: its
         * surface normal (minus the sweep's) has a positive part along the direction. */
        /* A one-sided chain's segments each block from their right: one near the point does. */
        if (st->set_seg[index] && placed)
            FZ_CHECK(fz_chain_side_ok(at, fz_v(0, 0), r.point, fz_v(-r.normal.x, -r.normal.y), tol),
                     "set sweep stopped by one-sided chain %d from the left of its segments at (%.17g, %.17g), normal "
                     "(%.17g, %.17g)",
                     index, r.point.x, r.point.y, r.normal.x, r.normal.y);
        else if (fz_member_one_way(st, index) && !st->set_seg[index])
            FZ_CHECK(-(r.normal.x * st->set_ow[index].x + r.normal.y * st->set_ow[index].y) > 0,
                     "set sweep stopped by one-way member %d (direction (%.17g, %.17g)) from the side, normal (%.17g, %.17g)",
                     index, st->set_ow[index].x, st->set_ow[index].y, r.normal.x, r.normal.y);
    }
    c2d_shape_destroy(at_owned);
    /* And it does block there: a mover that starts clear of a one-way member and meets it first (by
     * c2d_sweep, each moving, or c2d_sweep_motion for a turning one, touching then) from the side it
     * blocks, clearly (its surface normal 1e-6 along the direction) and not grazing (the mover's
     * motion relative to the member's surface where they meet), stops no later than that contact. Not
     * for movers no larger than the seam tolerance, as above. */
    for (int j = 0; j < st->set_n && !(st->set_seam_tol >= mover_size); j++) {
        c2d_toi rj;
        if (!st->set_on[j] || !fz_member_one_way(st, j) || st->set_seg[j] || fz_sweep_member(st, m, d, j, &rj) != C2D_OK ||
            rj.state != C2D_TOI_HIT)
            continue;
        c2d_vec2 wv = st->set_vel[j];
        if (fz_member_turns(st, j)) {
            c2d_motion mj = fz_member_motion(st, j);
            wv = fz_motion_velocity_at(st->set_shape[j], &mj, rj.t, rj.point);
            const c2d_shape *jat;
            c2d_shape *jowned;
            double gj = NAN;
            if (fz_member_at(st, j, rj.t, &jat, &jowned)) {
                c2d_shape *pm = fz_moved(m, d, rj.t);
                if (pm && c2d_distance(pm, jat, &dr) == C2D_OK)
                    gj = dr.distance;
                c2d_shape_destroy(pm);
            }
            c2d_shape_destroy(jowned);
            if (!(fabs(gj) <= tol))
                continue; /* an early answer, or not known */
        }
        c2d_vec2 rel = fz_sub(d, wv), u = st->set_ow[j];
        double approach = rj.normal.x * rel.x + rj.normal.y * rel.y, facing = -(rj.normal.x * u.x + rj.normal.y * u.y);
        double dj0 = fz_dist(m, st->set_shape[j]);
        if (!(dj0 > tol) || !(approach > 1e-6 * fz_len(rel)) || !(facing > 1e-6))
            continue;
        FZ_CHECK((r.t - rj.t) * fz_len(rel) <= tol,
                 "set sweep went on to t %.17g past one-way member %d (direction (%.17g, %.17g)), met from the side it "
                 "blocks at t %.17g (normal (%.17g, %.17g))",
                 r.t, j, u.x, u.y, rj.t, -rj.normal.x, -rj.normal.y);
    }
}

/* Contacts with one-way members (every contact of a set move or ball step, in fz_all): a push-out
 * never names one (push-outs ignore them), and a contact whose response stops or deflects the mover
 * is met from the side the member blocks (the normal, towards the mover, has a positive part along
 * its direction). Crossings are reported whichever side they enter from. */
void fz_check_one_way_contacts(const fz_state *st, const c2d_sweep_contact *c, int n, double dt, double scale)
{
    for (int k = 0; k < n; k++) {
        int j = c[k].index;
        if (j < 0 || j >= st->set_n || !fz_member_one_way(st, j))
            continue;
        c2d_vec2 u = st->set_ow[j];
        FZ_CHECK(!c[k].pushed_out, "contact %d: pushed out of one-way member %d", k, j);
        /* A one-sided chain: a segment at the contact point (the chain where its velocity had taken
         * it then) has the normal on its right. */
        if (st->set_seg[j] && c[k].response != C2D_RESPONSE_CROSS) {
            const c2d_shape *at;
            c2d_shape *owned;
            if (!fz_member_at(st, j, c[k].t * dt, &at, &owned))
                continue;
            int ok = fz_chain_side_ok(at, fz_v(0, 0), c[k].point, c[k].normal, FZ_REL_TOL * 4 * (1 + scale));
            c2d_shape_destroy(owned);
            FZ_CHECK(ok,
                     "contact %d (response %d) with one-sided chain %d from the left of its segments at (%.17g, %.17g), "
                     "normal (%.17g, %.17g)",
                     k, (int)c[k].response, j, c[k].point.x, c[k].point.y, c[k].normal.x, c[k].normal.y);
            continue;
        }
        if (c[k].response != C2D_RESPONSE_CROSS)
            FZ_CHECK(c[k].normal.x * u.x + c[k].normal.y * u.y > 0,
                     "contact %d (response %d) with one-way member %d (direction (%.17g, %.17g)) from the side, normal "
                     "(%.17g, %.17g)",
                     k, (int)c[k].response, j, u.x, u.y, c[k].normal.x, c[k].normal.y);
    }
}

void op_set_push_out(fz_state *st)
{
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_vec2 p;
    memset(&p, FZ_POISON, sizeof p);
    c2d_status s = c2d_static_set_push_out(st->set, m, &p);
    fz_check_status(s);
    if (!st->set || !m) {
        FZ_CHECK(s == C2D_ERR_NULL && fz_is_poison(&p, sizeof p), "bad push_out gave %d", (int)s);
        return;
    }
    if (fz_is_compound(m)) {
        FZ_CHECK(s == C2D_ERR_NOT_CONVEX && fz_is_poison(&p, sizeof p), "push_out of a compound mover gave %d", (int)s);
        return;
    }
    FZ_CHECK(s == C2D_OK, "push_out rejected with %d", (int)s);
    FZ_CHECK(c2d_static_set_push_out(st->set, m, NULL) == C2D_ERR_NULL, "push_out to NULL accepted");
    FZ_CHECK(fz_finite_vec(p), "push_out (%g, %g)", p.x, p.y);
    /* Push-outs happen where the members stand (time 0) and ignore one-way members (left out of the
     * clearance: clear of the others, the mover is not pushed). */
    double tol = FZ_REL_TOL * 4 * (1 + fz_set_scale(st, m, p, 0));
    int w;
    double d0 = fz_set_clearance(st, m, p, 0, 0, NULL, &w);
    if (d0 > tol)
        FZ_CHECK(p.x == 0 && p.y == 0, "push_out (%.17g, %.17g) for a mover %.17g clear of the set", p.x, p.y, d0);
    double d1 = fz_set_clearance(st, m, p, 1, 0, NULL, &w);
    FZ_CHECK(!(d1 < -tol), "pushed out by (%.17g, %.17g), the mover is still %.17g inside shape %d (tol %g)", p.x, p.y,
             d1, w, tol);
}

/* Move options from the input; *ok says whether the library must accept them. resp receives the
 * effective response to each shape of the set (NONE: ignored). */
const c2d_move_options *fz_move_options(fz_state *st, c2d_move_options *o, c2d_response *arr, int n,
                                        c2d_response dflt, c2d_response *resp, int *ok)
{
    uint8_t mode = fz_byte(st);
    *ok = 1;
    for (int i = 0; i < n; i++)
        resp[i] = dflt;
    if (!(mode & 1))
        return NULL;
    *o = c2d_move_options_default();
    o->response = (c2d_response)((mode >> 1) % 6);
    if (mode & 0x10) {
        for (int i = 0; i < n; i++)
            arr[i] = (c2d_response)(fz_byte(st) % 6);
        o->responses = arr;
    }
    if (mode & 0x20)
        o->restitution = fz_number(st);
    if (mode & 0x40)
        o->friction = fz_number(st);
    if ((int)o->response > 4 || !isfinite(o->restitution) || o->restitution < 0 || o->restitution > 1 ||
        !isfinite(o->friction) || o->friction < 0 || o->friction > C2D_MAX_COORDINATE)
        *ok = 0;
    for (int i = 0; i < n; i++) {
        if (o->responses && (int)arr[i] > 4)
            *ok = 0;
        resp[i] = o->responses ? arr[i] : (o->response != C2D_RESPONSE_NONE ? o->response : dflt);
    }
    return o;
}

/* The contacts written by a move or ball step, and the untouched rest of the array. */
void fz_check_contacts(const c2d_sweep_contact *c, int cap, int count, int n, const c2d_response *resp)
{
    int written = count < cap ? count : cap;
    double last = 0;
    for (int k = 0; k < written; k++) {
        FZ_CHECK(c[k].index >= 0 && c[k].index < n, "contact %d index %d", k, c[k].index);
        FZ_CHECK(isfinite(c[k].t) && c[k].t >= 0 && c[k].t <= 1 && c[k].t >= last, "contact %d at t %.17g after %.17g", k,
                 c[k].t, last);
        last = c[k].t;
        FZ_CHECK(fz_finite_vec(c[k].point), "contact %d point not finite", k);
        fz_check_unit(c[k].normal, "move contact normal");
        FZ_CHECK(c[k].pushed_out == 0 || c[k].pushed_out == 1, "pushed_out %d", c[k].pushed_out);
        FZ_CHECK((int)c[k].response >= 1 && (int)c[k].response <= 4, "contact response %d", (int)c[k].response);
        if (resp && c[k].index >= 0 && c[k].index < n && !c[k].pushed_out)
            FZ_CHECK(c[k].response == resp[c[k].index], "contact with shape %d applied response %d, not %d",
                     c[k].index, (int)c[k].response, (int)resp[c[k].index]);
    }
    FZ_CHECK(fz_is_poison(c + written, (size_t)(16 - written) * sizeof *c), "contacts written past %d", written);
}

void fz_check_move_result(const c2d_move_result *r)
{
    FZ_CHECK(fz_finite_vec(r->displacement) && fz_finite_vec(r->velocity) && isfinite(r->travelled) &&
                 r->travelled >= 0,
             "move result not finite");
    FZ_CHECK(r->count >= 0 && (r->truncated == 0 || r->truncated == 1), "move count %d truncated %d", r->count,
             r->truncated);
    /* Cut short exactly when it met more than 256 contacts (the contact past them is counted). */
    FZ_CHECK(r->truncated == (r->count > 256), "move count %d but truncated %d", r->count, r->truncated);
}
