/* ops_shapes.c - the operations on single shapes (ops 0-19, 38, 39): constructors with their statuses
 * predicted, clone and destroy, transforms, pair and point queries, rays (plain, aimed, along
 * features), shared points, vertex reads and the calls given NULL. */
#include "fz.h"

/* ---- the operations ------------------------------------------------------------------------ */

/* Stores a newly created shape in a slot (freeing what was there) after checking the call. */
void fz_created(fz_state *st, int slot, c2d_status r, int should_accept, c2d_shape *out, c2d_shape *sentinel)
{
    fz_check_status(r);
    if (r != C2D_OK) {
        FZ_CHECK(out == sentinel, "rejected constructor wrote *out");
        FZ_CHECK(should_accept <= 0 || r == C2D_ERR_NO_MEMORY, "valid shape rejected with %d (%s)", (int)r,
                 c2d_status_string(r));
        return;
    }
    FZ_CHECK(should_accept >= 0, "invalid shape accepted");
    FZ_CHECK(out != NULL && out != sentinel, "accepted constructor left *out unset");
    fz_check_shape(out);
    c2d_shape_destroy(st->slot[slot]);
    st->slot[slot] = out;
    memset(&st->model[slot], 0, sizeof st->model[slot]); /* a chain or concave polygon sets its own */
}

/* A pointer that is never a valid shape: the constructors must not write it over on failure. */
c2d_shape *fz_sentinel(void)
{
    static char mark;
    return (c2d_shape *)(void *)&mark;
}

void op_circle(fz_state *st)
{
    int slot = fz_slot(st);
    double x = fz_number(st), y = fz_number(st), r = fz_number(st);
    c2d_shape *out = fz_sentinel();
    c2d_status s = c2d_circle_new(x, y, r, &out);
    int ok = fz_ok_number(x) && fz_ok_number(y) && fz_ok_number(r) && r > 0;
    fz_created(st, slot, s, ok ? 1 : -1, out, fz_sentinel());
    if (s == C2D_OK) {
        c2d_vec2 p;
        double rr;
        c2d_shape_get_position(out, &p);
        c2d_shape_get_radius(out, &rr);
        FZ_CHECK(p.x == x && p.y == y && rr == r, "circle stored (%g, %g, %g) for (%g, %g, %g)", p.x, p.y, rr, x, y, r);
    }
    FZ_CHECK(c2d_circle_new(x, y, r, NULL) == C2D_ERR_NULL || !ok, "NULL out accepted");
}

void op_rect(fz_state *st)
{
    int slot = fz_slot(st);
    double x = fz_number(st), y = fz_number(st), w = fz_number(st), h = fz_number(st), a = fz_number(st);
    c2d_shape *out = fz_sentinel();
    c2d_status s = c2d_rect_new(x, y, w, h, a, &out);
    int ok = fz_ok_number(x) && fz_ok_number(y) && fz_ok_number(w) && fz_ok_number(h) && fz_ok_number(a) && w > 0 &&
             h > 0;
    fz_created(st, slot, s, ok ? 1 : -1, out, fz_sentinel());
    if (s == C2D_OK) {
        c2d_vec2 p;
        double aa;
        c2d_shape_get_position(out, &p);
        c2d_shape_get_angle(out, &aa);
        FZ_CHECK(p.x == x && p.y == y && aa == a, "rect stored at (%g, %g) angle %g", p.x, p.y, aa);
    }
}

static void op_two_point(fz_state *st, int capsule)
{
    int slot = fz_slot(st);
    c2d_vec2 a = fz_vec(st), b = fz_vec(st);
    double r = capsule ? fz_number(st) : 0.0;
    c2d_shape *out = fz_sentinel();
    c2d_status s = capsule ? c2d_capsule_new(a, b, r, &out) : c2d_segment_new(a, b, &out);
    int ok = fz_ok_vec(a) && fz_ok_vec(b) && !(a.x == b.x && a.y == b.y) && (!capsule || (fz_ok_number(r) && r > 0));
    fz_created(st, slot, s, ok ? 1 : -1, out, fz_sentinel());
}

void op_capsule(fz_state *st)
{
    op_two_point(st, 1);
}

void op_segment(fz_state *st)
{
    op_two_point(st, 0);
}


/* Polygons and hulls: raw points, or a regular k-gon (often valid) in either winding, possibly with
 * one vertex pushed inwards or duplicated. Also counts outside the accepted range. */
static void op_polygon_common(fz_state *st, int hull)
{
    int slot = fz_slot(st);
    uint8_t shape_byte = fz_byte(st);
    int n = shape_byte % 20;
    c2d_vec2 pts[FZ_MAX_POINTS];
    memset(pts, 0, sizeof pts);
    int pass_n = n;
    if (shape_byte == 0xFF)
        pass_n = -1;
    else if (shape_byte == 0xFE)
        pass_n = C2D_MAX_POLYGON_POINTS + 1; /* must be rejected before the points are read */
    uint8_t mode = fz_byte(st) % 4;
    if (mode == 0) {
        for (int i = 0; i < n; i++)
            pts[i] = fz_vec(st);
    } else {
        c2d_vec2 c = fz_vec(st);
        double rad = fz_number(st), phase = fz_number(st);
        for (int i = 0; i < n; i++) {
            double t = phase + 6.283185307179586 * i / (n ? n : 1);
            int k = mode == 3 ? n - 1 - i : i; /* mode 3: clockwise */
            pts[k] = fz_v(c.x + rad * cos(t), c.y + rad * sin(t));
        }
        if (mode == 2 && n > 0) {
            int k = fz_byte(st) % n;
            double f = fz_number(st);
            pts[k] = fz_v(c.x + (pts[k].x - c.x) * f, c.y + (pts[k].y - c.y) * f);
        }
    }
    int all_ok = 1;
    for (int i = 0; i < n; i++)
        all_ok &= fz_ok_vec(pts[i]);
    c2d_shape *out = fz_sentinel();
    c2d_status s = hull ? c2d_hull_new(pts, pass_n, &out) : c2d_polygon_new(pts, pass_n, &out);
    /* Convexity is the library's call; only the clear rejections are predicted. */
    int must_reject = !all_ok || pass_n < 3 || pass_n > C2D_MAX_POLYGON_POINTS;
    if (!must_reject) {
        /* Degeneracy is exact (issue 22, the header's rule): points all on one line (or fewer than 3
         * distinct ones) are refused as DEGENERATE, and other points are refused so only when they are
         * so thin that, measured from their centroid, rounding puts them on one line. */
        int a = 0, b = 1, collinear = 1;
        while (b < n && fz_veq(pts[b], pts[a]))
            b++;
        for (int k = b + 1; k < n && collinear; k++)
            collinear = fz_orient(pts[a], pts[b], pts[k]) == 0;
        const c2d_vec2 *ring = pts;
        if (collinear)
            FZ_CHECK(s == C2D_ERR_DEGENERATE, "%d points on one line gave %d, not DEGENERATE", n, (int)s);
        else if (s == C2D_ERR_DEGENERATE)
            FZ_CHECK(fz_rings_flat(&ring, &n, 1), "%d points not on one line, nor within rounding of one, were "
                                                  "refused as DEGENERATE", n);
    }
    fz_created(st, slot, s, must_reject ? -1 : 0, out, fz_sentinel());
    if (s != C2D_OK)
        return;
    int count = 0;
    c2d_shape_get_vertices(out, NULL, 0, &count);
    FZ_CHECK(count >= 3 && count <= n, "polygon of %d points has %d vertices", n, count);
    /* Every input point lies in a hull, and (up to dropped collinear points) on a polygon. */
    double tol = FZ_REL_TOL * fz_shape_scale(out);
    for (int i = 0; i < n; i++) {
        double d = fz_sd(out, pts[i]);
        FZ_CHECK(d <= tol, "input point %d (%.17g, %.17g) is %g outside its %s", i, pts[i].x, pts[i].y, d,
                 hull ? "hull" : "polygon");
    }
    c2d_vec2 centroid;
    double ctol = fmax(tol, fz_sliver_slack(out));
    c2d_shape_get_position(out, &centroid);
    FZ_CHECK(fz_sd(out, centroid) <= ctol, "centroid outside its polygon");
}

void op_polygon(fz_state *st)
{
    op_polygon_common(st, 0);
}

void op_hull(fz_state *st)
{
    op_polygon_common(st, 1);
}

void op_clone(fz_state *st)
{
    int from = fz_slot(st), to = fz_slot(st);
    c2d_shape *out = fz_sentinel();
    c2d_status r = c2d_shape_clone(st->slot[from], &out);
    fz_check_status(r);
    if (!st->slot[from]) {
        FZ_CHECK(r == C2D_ERR_NULL && out == fz_sentinel(), "clone of NULL gave %d", (int)r);
        return;
    }
    FZ_CHECK(r == C2D_OK, "clone failed with %d", (int)r);
    fz_snapshot s1, s2;
    fz_snapshot_take(st->slot[from], &s1);
    fz_snapshot_take(out, &s2);
    FZ_CHECK(fz_snapshot_equal(&s1, &s2), "clone differs from its original");
    if (fz_is_compound(out)) {
        /* A compound's clone stands on its own: a copy of it moved, turned and destroyed leaves both
         * the original and the clone as they were, parts included. */
        c2d_shape *t = NULL;
        fz_snapshot s3;
        FZ_CHECK(c2d_shape_clone(out, &t) == C2D_OK, "clone of a clone failed");
        c2d_vec2 p = s1.pos;
        FZ_CHECK(c2d_shape_set_transform(t, fz_v(p.x * 0.5 + 1, p.y * 0.5 - 1), s1.angle * 0.5 + 1) == C2D_OK,
                 "moving a clone failed");
        fz_check_shape(t);
        c2d_shape_destroy(t);
        fz_snapshot_take(st->slot[from], &s3);
        FZ_CHECK(fz_snapshot_equal(&s1, &s3), "moving a clone's clone changed the original");
        fz_snapshot_take(out, &s3);
        FZ_CHECK(fz_snapshot_equal(&s2, &s3), "moving a clone's clone changed the clone");
    }
    if (from == to) {
        c2d_shape_destroy(out);
        return;
    }
    c2d_shape_destroy(st->slot[to]);
    st->slot[to] = out;
    st->model[to] = st->model[from];
}

void op_destroy(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape_destroy(st->slot[slot]); /* NULL too: must be ignored */
    st->slot[slot] = NULL;
    memset(&st->model[slot], 0, sizeof st->model[slot]);
}

/* The transform setters. kind: 0 set_position, 1 set_angle, 2 set_transform, 3 move, 4 rotate.
 * A call is accepted exactly when its numbers, and the resulting position and angle, are finite and
 * within C2D_MAX_COORDINATE; accepted, it places the shape exactly as asked and moves it rigidly;
 * rejected, it changes nothing. */
static void op_transform(fz_state *st, int kind)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    c2d_vec2 p = fz_v(0, 0);
    double a = 0;
    if (kind != 1 && kind != 4)
        p = fz_vec(st);
    if (kind == 1 || kind == 2 || kind == 4)
        a = fz_number(st);
    fz_snapshot before, after;
    double scale_before = fz_shape_scale(s);
    if (s)
        fz_snapshot_take(s, &before);
    else
        memset(&before, 0, sizeof before);
    c2d_vec2 want_pos = before.pos;
    double want_angle = before.angle;
    int ok = 1;
    c2d_status r;
    switch (kind) {
    case 0:
        r = c2d_shape_set_position(s, p);
        ok = fz_ok_vec(p);
        want_pos = p;
        break;
    case 1:
        r = c2d_shape_set_angle(s, a);
        ok = fz_ok_number(a);
        want_angle = a;
        break;
    case 2:
        r = c2d_shape_set_transform(s, p, a);
        ok = fz_ok_vec(p) && fz_ok_number(a);
        want_pos = p;
        want_angle = a;
        break;
    case 3:
        r = c2d_shape_move(s, p);
        want_pos = fz_v(before.pos.x + p.x, before.pos.y + p.y);
        ok = fz_ok_vec(p) && fz_ok_vec(want_pos);
        break;
    default:
        r = c2d_shape_rotate(s, a);
        want_angle = before.angle + a;
        ok = fz_ok_number(a) && fz_ok_number(want_angle);
        break;
    }
    fz_check_status(r);
    if (!s) {
        FZ_CHECK(r == C2D_ERR_NULL, "NULL shape gave %d", (int)r);
        return;
    }
    fz_snapshot_take(s, &after);
    if (r != C2D_OK) {
        FZ_CHECK(!ok, "valid transform rejected with %d", (int)r);
        FZ_CHECK(fz_snapshot_equal(&before, &after), "rejected transform changed the shape");
        return;
    }
    FZ_CHECK(ok, "out-of-range transform accepted: pos (%g, %g) angle %g", want_pos.x, want_pos.y, want_angle);
    FZ_CHECK(after.pos.x == want_pos.x && after.pos.y == want_pos.y && after.angle == want_angle,
             "transform left pos (%.17g, %.17g) angle %.17g, wanted (%.17g, %.17g) %.17g", after.pos.x, after.pos.y,
             after.angle, want_pos.x, want_pos.y, want_angle);
    fz_check_shape(s);
    FZ_CHECK(after.type == before.type && after.count == before.count && after.radius == before.radius,
             "transform changed the kind, vertex count or radius");
    /* Rigid motion: every vertex keeps its distance from the position (up to the rounding of the
     * placement before and after, which scales with the coordinates at both places). */
    double tol = FZ_REL_TOL * fmax(scale_before, fz_shape_scale(s));
    for (int i = 0; i < after.count; i++) {
        double l0 = fz_len(fz_sub(before.v[i], before.pos)), l1 = fz_len(fz_sub(after.v[i], after.pos));
        FZ_CHECK(fabs(l0 - l1) <= tol + FZ_REL_TOL * l0, "vertex %d moved from radius %.17g to %.17g", i, l0, l1);
    }
}

void op_set_position(fz_state *st) { op_transform(st, 0); }
void op_set_angle(fz_state *st) { op_transform(st, 1); }
void op_set_transform(fz_state *st) { op_transform(st, 2); }
void op_move(fz_state *st) { op_transform(st, 3); }
void op_rotate(fz_state *st) { op_transform(st, 4); }

void op_pair(fz_state *st)
{
    int i = fz_slot(st), j = fz_slot(st);
    fz_check_slots(st, i, j);
}

/* Every pair of slots (including each shape with itself and with the empty slots). */
void op_all_pairs(fz_state *st)
{
    if (++st->all_pairs_runs > FZ_ALL_PAIRS_MAX)
        return;
    for (int i = 0; i < FZ_SLOTS; i++)
        for (int j = i; j < FZ_SLOTS; j++)
            fz_check_slots(st, i, j);
}

/* contains_point and closest_point at one point, and how they agree. */
void op_point(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    c2d_vec2 p = fz_vec(st);
    uint8_t which = fz_byte(st) % 3; /* 0 both outputs, 1 point only, 2 distance only */
    int in;
    c2d_vec2 q;
    double sd;
    memset(&in, FZ_POISON, sizeof in);
    memset(&q, FZ_POISON, sizeof q);
    memset(&sd, FZ_POISON, sizeof sd);
    c2d_status r1 = c2d_contains_point(s, p, &in);
    c2d_status r2 = c2d_closest_point(s, p, which == 2 ? NULL : &q, which == 1 ? NULL : &sd);
    fz_check_status(r1);
    fz_check_status(r2);
    int ok = s && fz_ok_vec(p);
    if (!ok) {
        FZ_CHECK(r1 != C2D_OK && r2 != C2D_OK, "bad point query accepted");
        FZ_CHECK(fz_is_poison(&in, sizeof in) && fz_is_poison(&q, sizeof q) && fz_is_poison(&sd, sizeof sd),
                 "output written on error");
        return;
    }
    FZ_CHECK(r1 == C2D_OK && r2 == C2D_OK, "point query failed: %d %d", (int)r1, (int)r2);
    FZ_CHECK(c2d_closest_point(s, p, NULL, NULL) == C2D_ERR_NULL, "closest_point with no outputs accepted");
    FZ_CHECK(c2d_contains_point(s, p, NULL) == C2D_ERR_NULL, "contains_point with NULL out accepted");
    FZ_CHECK(in == 0 || in == 1, "contains wrote %d", in);
    if (which == 1)
        FZ_CHECK(fz_is_poison(&sd, sizeof sd), "distance written though not asked for");
    if (which == 2)
        FZ_CHECK(fz_is_poison(&q, sizeof q), "point written though not asked for");
    /* Both outputs, to check them against each other. */
    FZ_CHECK(c2d_closest_point(s, p, &q, &sd) == C2D_OK, "closest_point failed");
    FZ_CHECK(fz_finite_vec(q) && isfinite(sd), "closest point (%g, %g) distance %g", q.x, q.y, sd);
    double tol = FZ_REL_TOL * fmax(fz_shape_scale(s), fmax(fabs(p.x), fabs(p.y)));
    FZ_CHECK(fabs(fz_len(fz_sub(q, p)) - fabs(sd)) <= tol, "closest point %.17g away but signed distance %.17g",
             fz_len(fz_sub(q, p)), sd);
    if (fabs(sd) > tol)
        FZ_CHECK(in == (sd < 0), "contains %d but signed distance %.17g", in, sd);
    /* The closest point is on the boundary: its own distance is zero. */
    if (fz_ok_vec(q))
        FZ_CHECK(fabs(fz_sd(s, q)) <= tol, "closest point is %.17g off the boundary", fz_sd(s, q));
    fz_check_model_point(st, slot, p);
}

void op_raycast(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    c2d_vec2 o = fz_vec(st), d = fz_vec(st);
    double max_t = fz_number(st);
    c2d_ray_hit h;
    memset(&h, FZ_POISON, sizeof h);
    c2d_status r = c2d_raycast(s, o, d, max_t, &h);
    fz_check_status(r);
    int ok = s && fz_ok_vec(o) && fz_ok_vec(d) && !isnan(max_t) && max_t >= 0 && !(d.x == 0 && d.y == 0);
    if (!ok) {
        FZ_CHECK(r != C2D_OK, "bad ray accepted");
        FZ_CHECK(fz_is_poison(&h, sizeof h), "output written on error");
        return;
    }
    FZ_CHECK(r == C2D_OK, "valid ray rejected with %d", (int)r);
    FZ_CHECK(c2d_raycast(s, o, d, max_t, NULL) == C2D_ERR_NULL, "NULL out accepted");
    fz_check_ray(s, o, d, max_t, &h);
    if (!h.hit)
        fz_check_miss(s, o, d, max_t);
    fz_check_model_ray(st, slot, o, d, max_t, &h);
}

/* A ray from a point aimed at the shape's position (which every kind contains) must hit by t = 1.
 * A segment's position is on its surface, so the crossing is at t = 1 up to rounding: max_t allows it. */
void op_aimed_ray(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    c2d_vec2 o = fz_vec(st);
    if (!s || !fz_ok_vec(o))
        return;
    c2d_vec2 p;
    c2d_shape_get_position(s, &p);
    /* A chain's or concave polygon's position need not belong to it: it is aimed at its first part
     * instead (the mean of its vertices: the middle of a chain's first segment, a point inside a
     * concave polygon's first convex part). */
    c2d_vec2 pv[FZ_MAX_VERTS];
    int pn = 0;
    if (fz_is_compound(s)) {
        fz_part(s, 0, pv, FZ_MAX_VERTS, &pn);
        if (pn == 0)
            return;
        p = fz_v(0, 0);
        for (int i = 0; i < pn; i++)
            p = fz_v(p.x + pv[i].x / pn, p.y + pv[i].y / pn);
    }
    c2d_vec2 d = fz_sub(p, o);
    c2d_ray_hit h;
    /* The crossing is exact only to the rounding of the shape's placed vertices, which scales with
     * their coordinates, not with the length of the ray: a ray short against the coordinates may
     * cross a thin shape a little past t = 1. For a ray of denormal length that allowance makes
     * max_t infinite, which the API takes. */
    const double max_t = 1 + fmax(1e-6, FZ_REL_TOL * fmax(fz_shape_scale(s), fz_vec_mag(o)) / fz_len(d));
    c2d_status r = c2d_raycast(s, o, d, max_t, &h);
    if (d.x == 0 && d.y == 0) {
        FZ_CHECK(r == C2D_ERR_DEGENERATE, "zero direction gave %d", (int)r);
        return;
    }
    if (!fz_ok_vec(d))
        return; /* the difference itself may leave the accepted range */
    FZ_CHECK(r == C2D_OK, "aimed ray rejected with %d", (int)r);
    fz_check_ray(s, o, d, max_t, &h);
    fz_check_model_ray(st, slot, o, d, max_t, &h);
    double radius = 0;
    c2d_shape_get_radius(s, &radius);
    /* A precision limit, not a bug: aiming at the centre is only exact to the rounding of the ray's
     * direction, about 1e-16 of the distance, so a radius far below that may be missed. */
    if (radius > 0 && radius < 1e-12 * (fz_len(d) + fabs(p.x) + fabs(p.y)))
        return;
    /* The same for any shape whose whole extent is below that rounding (for a compound, the part
     * aimed at). */
    c2d_aabb box;
    c2d_shape_get_aabb(s, &box);
    for (int i = 0; i < pn; i++) {
        if (i == 0)
            box.min = box.max = pv[0];
        box.min = fz_v(fmin(box.min.x, pv[i].x), fmin(box.min.y, pv[i].y));
        box.max = fz_v(fmax(box.max.x, pv[i].x), fmax(box.max.y, pv[i].y));
    }
    if (fz_len(fz_sub(box.max, box.min)) < 1e-12 * (fz_len(d) + fabs(p.x) + fabs(p.y)))
        return;
    /* A sliver's position (its centroid, deep in the sliver) may lie outside its rounded edge lines. */
    if (fz_sliver_slack(s) > FZ_REL_TOL * fz_shape_scale(s))
        return;
    /* And a scene wholly below DBL_MIN / DBL_EPSILON: products with unit normals there are
     * subnormal, with fewer bits than the rounding checks assume (a point-sized rectangle at
     * (5e-324, 5e-324), aimed at from 5e-324 away). */
    if (fmax(fz_len(d), fmax(fz_vec_mag(o), fz_vec_mag(p))) < DBL_MIN / DBL_EPSILON)
        return;
    if (c2d_shape_get_type(s) == C2D_SHAPE_SEGMENT || c2d_shape_get_type(s) == C2D_SHAPE_CHAIN) {
        /* A segment has no area: where a ray crosses it at a grazing angle is ill-conditioned (the
         * crossing moves by about ulp / sin(angle)), so a hit is only required at a fair angle. So for
         * a chain's first segment. */
        c2d_vec2 v[2];
        int n = 0;
        if (c2d_shape_get_type(s) == C2D_SHAPE_CHAIN)
            fz_part(s, 0, v, 2, &n);
        else
            c2d_shape_get_vertices(s, v, 2, &n);
        c2d_vec2 e = fz_sub(v[1], v[0]);
        double sin_angle = fabs(d.x * e.y - d.y * e.x) / (fz_len(d) * fz_len(e));
        double scale = fmax(fz_shape_scale(s), fmax(fabs(o.x), fabs(o.y)));
        if (!(sin_angle * fz_len(d) >= 1e-6 * scale))
            return;
    }
    FZ_CHECK(h.hit, "ray from (%.17g, %.17g) aimed at the position (%.17g, %.17g) missed", o.x, o.y, p.x, p.y);
}

/* A ray at a feature of a shape as placed, where rounding decides: through a vertex (from a fuzzed
 * origin), along an edge's line, or out of a vertex or a point of an edge in a fuzzed direction. */
void op_feature_ray(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    uint8_t how = fz_byte(st), which = fz_byte(st);
    c2d_vec2 o = fz_vec(st), d = fz_vec(st);
    double f = fz_number(st), max_t = how & 8 ? fz_number(st) : INFINITY;
    c2d_vec2 v[FZ_MAX_VERTS];
    int n = 0;
    if (!s || c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &n) != C2D_OK || n == 0)
        return;
    c2d_vec2 a = v[which % n], b = v[(which + 1) % n];
    switch (how % 4) {
    case 0: /* from o through the vertex */
        d = fz_sub(a, o);
        break;
    case 1: /* along the edge's line, from f edge lengths before its start */
        d = fz_sub(b, a);
        o = fz_v(a.x - f * d.x, a.y - f * d.y);
        break;
    case 2: /* out of the vertex */
        o = a;
        break;
    default: /* out of a point of the edge */
        f = isfinite(f) ? fabs(fmod(f, 1.0)) : 0.5;
        o = fz_v(a.x + f * (b.x - a.x), a.y + f * (b.y - a.y));
        break;
    }
    if (!fz_ok_vec(o) || !fz_ok_vec(d) || (d.x == 0 && d.y == 0) || isnan(max_t) || max_t < 0)
        return;
    c2d_ray_hit h;
    FZ_CHECK(c2d_raycast(s, o, d, max_t, &h) == C2D_OK, "feature ray rejected");
    fz_check_ray(s, o, d, max_t, &h);
    if (!h.hit)
        fz_check_miss(s, o, d, max_t);
    fz_check_model_ray(st, slot, o, d, max_t, &h);
}

/* A new shape in a slot that shares a point with another slot's shape as placed (a segment or
 * capsule from its vertex, a triangle or an unturned rectangle with a corner there, a circle centred
 * there), then every pair query on the two. */
void op_share(fz_state *st)
{
    int from = fz_slot(st), slot = fz_slot(st);
    uint8_t kind = fz_byte(st), which = fz_byte(st);
    c2d_vec2 p = fz_vec(st), q = fz_vec(st);
    double r = fz_number(st);
    c2d_shape *s = st->slot[from], *out = NULL;
    c2d_vec2 v[FZ_MAX_VERTS];
    int n = 0;
    if (!s || c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &n) != C2D_OK || n == 0)
        return;
    c2d_vec2 a = v[which % n];
    if (kind & 8) {
        /* Offsets scaled by an irrational factor: the new shape's own points then carry rounding too,
         * so that its placed copy of the shared point may differ from the original by an ulp. */
        p = fz_v(a.x + (p.x - a.x) * 0.70710678118654757, a.y + (p.y - a.y) * 0.70710678118654757);
        q = fz_v(a.x + (q.x - a.x) * 0.70710678118654757, a.y + (q.y - a.y) * 0.70710678118654757);
    }
    c2d_status r1;
    switch (kind % 5) {
    case 0: r1 = c2d_segment_new(a, p, &out); break;
    case 1: r1 = c2d_capsule_new(a, p, r, &out); break;
    case 2: {
        c2d_vec2 t[3] = {a, p, q};
        r1 = c2d_polygon_new(t, 3, &out);
        break;
    }
    case 3: r1 = c2d_rect_new(a.x + 0.5 * fabs(p.x), a.y + 0.5 * fabs(p.y), fabs(p.x), fabs(p.y), 0.0, &out); break;
    default: r1 = c2d_circle_new(a.x, a.y, r, &out); break;
    }
    fz_check_status(r1);
    if (r1 != C2D_OK)
        return; /* what each constructor accepts is checked by its own op */
    fz_check_shape(out);
    c2d_shape_destroy(st->slot[slot]);
    st->slot[slot] = out;
    memset(&st->model[slot], 0, sizeof st->model[slot]);
    if (slot != from)
        fz_check_pair(st->slot[from], out);
}

/* Vertex reads with every kind of capacity. */
void op_vertices(fz_state *st)
{
    c2d_shape *s = st->slot[fz_slot(st)];
    int cap = (int)(int8_t)fz_byte(st) % 40;
    int use_null = cap <= 0 && (fz_byte(st) & 1);
    c2d_vec2 buf[40];
    int count;
    memset(buf, FZ_POISON, sizeof buf);
    memset(&count, FZ_POISON, sizeof count);
    c2d_status r = c2d_shape_get_vertices(s, use_null ? NULL : buf, cap, &count);
    fz_check_status(r);
    if (!s) {
        FZ_CHECK(r == C2D_ERR_NULL && fz_is_poison(&count, sizeof count), "NULL shape gave %d", (int)r);
        return;
    }
    if (cap < 0) {
        FZ_CHECK(r == C2D_ERR_RANGE && fz_is_poison(buf, sizeof buf), "negative capacity gave %d", (int)r);
        return;
    }
    FZ_CHECK(r == C2D_OK || r == C2D_ERR_CAPACITY, "get_vertices gave %d", (int)r);
    FZ_CHECK(count >= 1 && count <= FZ_MAX_VERTS, "count %d", count);
    if (use_null || cap < count)
        FZ_CHECK(fz_is_poison(buf, sizeof buf), "vertices written beyond the capacity");
    else
        FZ_CHECK(fz_is_poison(buf + count, sizeof buf - (size_t)count * sizeof buf[0]),
                 "vertices written past the count");
    FZ_CHECK(r == ((use_null || cap >= count) ? C2D_OK : C2D_ERR_CAPACITY), "capacity %d for %d vertices gave %d",
             cap, count, (int)r);
}

/* Getters and the status strings with arbitrary values, NULL outputs included. */
void op_misc(fz_state *st)
{
    c2d_shape *s = st->slot[fz_slot(st)];
    int code = (int)(int8_t)fz_byte(st);
    FZ_CHECK(c2d_status_string((c2d_status)code) != NULL, "status string NULL for %d", code);
    FZ_CHECK(c2d_version() == C2D_VERSION_NUMBER && c2d_version_string() != NULL, "version mismatch");
    FZ_CHECK(c2d_shape_get_position(s, NULL) == C2D_ERR_NULL && c2d_shape_get_angle(s, NULL) == C2D_ERR_NULL &&
                 c2d_shape_get_aabb(s, NULL) == C2D_ERR_NULL && c2d_shape_get_radius(s, NULL) == C2D_ERR_NULL &&
                 c2d_shape_get_vertices(s, NULL, 0, NULL) == C2D_ERR_NULL,
             "NULL out accepted by a getter");
    FZ_CHECK(c2d_shape_clone(s, NULL) == C2D_ERR_NULL, "clone to NULL accepted");
    if (s)
        fz_check_shape(s);
    else
        FZ_CHECK(c2d_shape_get_type(NULL) == C2D_SHAPE_NONE, "type of NULL");
}
