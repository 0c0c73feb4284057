/* test_fuzz_regress.c - the library bugs the fuzz harness (fuzz/, entry point fuzz_api.c) found, one
 * test each, with the numbers of the minimised inputs: collapsed and denormal-sized shapes, far-out
 * coordinates where the placed vertices round, and long or huge rounded shapes. Each test states the
 * invariant the harness saw broken. */
#include "testutil.h"

#include <string.h>

#define DENORM 4.9406564584124654e-324

static c2d_vec2 v(double x, double y)
{
    return tu_v(x, y);
}

static double sd_of(const c2d_shape *s, c2d_vec2 p)
{
    double d = NAN;
    if (c2d_closest_point(s, p, NULL, &d) != C2D_OK)
        return NAN;
    return d;
}

/* Every contact point lies within half its depth of both surfaces (plus tol). */
static int contact_on_surfaces(const c2d_shape *a, const c2d_shape *b, const c2d_contact *c, double tol)
{
    for (int i = 0; i < c->count; i++) {
        double half = 0.5 * c->point_depths[i];
        if (!(sd_of(a, c->points[i]) <= half + tol && sd_of(b, c->points[i]) <= half + tol))
            return 0;
    }
    return 1;
}

/* shape.c: half of a denormal width rounds to 0, and the zero-length edges got the fallback normal
 * (0, 1), so points far below or beside the rectangle were "inside". */
TEST(fuzz_rect_of_denormal_size_keeps_its_axes)
{
    c2d_shape *r, *thin;
    ENSURE_OK(c2d_rect_new(174, 0.6875, DENORM, DENORM, DENORM, &r));
    ENSURE_NEAR(sd_of(r, v(-1, -1)), hypot(175, 1.6875), 1e-9);
    ENSURE_OK(c2d_rect_new(0, 0, DENORM, 2, 0, &thin));
    int in = 1;
    ENSURE_OK(c2d_contains_point(thin, v(0, -5), &in));
    ENSURE(in == 0);
    ENSURE_NEAR(sd_of(thin, v(0, -5)), 4.0, 1e-12);
    c2d_shape_destroy(r);
    c2d_shape_destroy(thin);
}

/* sat.c: the separation of a clipped end was measured from the face's first vertex along the
 * closest-feature direction; on a face 2.7e11 long the small angle to the face normal put the contact
 * point 16000 off both shapes. */
TEST(fuzz_contact_point_on_a_long_capsule_face)
{
    c2d_shape *cap, *c;
    ENSURE_OK(c2d_capsule_new(v(-3, -274592694272.0), v(5.796875, 461.796875), 461.796875, &cap));
    ENSURE_OK(c2d_circle_new(256, 12.078125, DENORM, &c));
    c2d_contact k;
    ENSURE_OK(c2d_collide(c, cap, &k));
    ENSURE(k.count >= 1);
    ENSURE(contact_on_surfaces(c, cap, &k, 1e-9 * 2.8e11));
    c2d_shape_destroy(cap);
    c2d_shape_destroy(c);
}

/* sat.c: flat_gap divided by a segment length whose square underflows (a 1e-265 segment), giving an
 * infinite gap and a contact depth of -inf. */
TEST(fuzz_tiny_segment_against_a_circle_has_a_finite_depth)
{
    c2d_shape *s, *c;
    ENSURE_OK(c2d_segment_new(v(3.8820769104158279e-265, 1e-300), v(1e-300, 1e-300), &s));
    ENSURE_OK(c2d_circle_new(-0.00390625, -1, 1e15, &c));
    c2d_contact k;
    ENSURE_OK(c2d_collide(c, s, &k));
    ENSURE(k.count >= 1 && isfinite(k.depth) && k.depth >= 0);
    ENSURE_OK(c2d_collide(s, c, &k));
    ENSURE(k.count >= 1 && isfinite(k.depth) && k.depth >= 0);
    c2d_shape_destroy(s);
    c2d_shape_destroy(c);
}

/* sat.c: clipping against a reference face whose placed ends coincide (a rectangle 1e-300 wide) had
 * no slab, and the contact went to the capsule's far end, 1 away from the rectangle. */
TEST(fuzz_contact_with_a_collapsed_reference_face)
{
    c2d_shape *cap, *r;
    ENSURE_OK(c2d_capsule_new(v(2.2667717506291911e-47, 3), v(3, 3), 3, &cap));
    ENSURE_OK(c2d_rect_new(1, 1e-300, 1e-300, 1e-300, 1e-300, &r));
    c2d_contact k;
    ENSURE_OK(c2d_collide(r, cap, &k));
    ENSURE(k.count == 1);
    ENSURE_NEAR(k.points[0].x, 1.0, 1e-9);
    ENSURE_NEAR(k.points[0].y, 0.0, 1e-9);
    c2d_shape_destroy(cap);
    c2d_shape_destroy(r);
}

/* sat.c: two circles a few denormals apart passed the squared-distance test (both squares underflow)
 * and got a negative depth. */
TEST(fuzz_denormal_circles_touch_at_depth_zero)
{
    c2d_shape *a, *b;
    ENSURE_OK(c2d_circle_new(0, 0, 1e-300, &a));
    ENSURE_OK(c2d_circle_new(1.5e-300, 1.5e-300, 1e-300, &b)); /* boxes overlap, centres 2.1e-300 apart */
    c2d_contact k;
    ENSURE_OK(c2d_collide(a, b, &k));
    ENSURE(k.count == 0 || k.depth >= 0);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

/* query.c: a point just inside the slab of a capsule's core projected onto the core's end, and the
 * way out then ran along the core: the "closest boundary point" was deep inside. */
TEST(fuzz_closest_point_at_a_capsule_core_end)
{
    c2d_shape *cap;
    ENSURE_OK(c2d_capsule_new(v(317.234375, 317.734375), v(317.234375, -0.0), 317.234375, &cap));
    c2d_vec2 q;
    double d;
    ENSURE_OK(c2d_closest_point(cap, v(317.234375, 3.4833313110434672e-307), &q, &d));
    ENSURE_NEAR(d, -317.234375, 1e-9);
    ENSURE(fabs(sd_of(cap, q)) <= 1e-9);
    c2d_shape_destroy(cap);
}

/* query.c: a rectangle 1e-9 thick placed at 4e14 has opposite edges on one line up to rounding; a ray
 * crossing it at a fair angle found entry after exit and missed. */
TEST(fuzz_ray_through_a_collapsed_thin_rectangle)
{
    c2d_shape *r;
    ENSURE_OK(c2d_rect_new(0, 256, 999999999999999.88, 1e-9, 0, &r));
    ENSURE_OK(c2d_shape_rotate(r, 1.0000000000000002));
    c2d_vec2 o = v(1.0000000000000002, 2);
    c2d_ray_hit h;
    ENSURE_OK(c2d_raycast(r, o, v(-o.x, 256 - o.y), 1.01, &h));
    ENSURE(h.hit == 1);
    /* ... and one that only passes behind a point-sized rectangle still misses. */
    c2d_shape *p;
    ENSURE_OK(c2d_rect_new(DENORM, DENORM, DENORM, DENORM, 1.0, &p));
    ENSURE_OK(c2d_raycast(p, v(260, 0), v(DENORM, 0), 100.09375, &h));
    ENSURE(h.hit == 0);
    c2d_shape_destroy(r);
    c2d_shape_destroy(p);
}

/* query.c: the offset edge of a capsule whose core is shorter than 1e-154 accepted a hit anywhere on
 * its line (the along-edge products underflowed to 0). */
TEST(fuzz_ray_against_a_capsule_with_a_tiny_core)
{
    c2d_shape *cap;
    ENSURE_OK(c2d_capsule_new(v(2.2250738585072014e-308, 0), v(-DENORM, DENORM), 17.015625, &cap));
    c2d_vec2 p, o = v(8, -449.765625);
    ENSURE_OK(c2d_shape_get_position(cap, &p));
    c2d_ray_hit h;
    ENSURE_OK(c2d_raycast(cap, o, tu_sub(p, o), 1.000001, &h));
    ENSURE(h.hit == 1);
    ENSURE(fabs(sd_of(cap, h.point)) <= 1e-9);
    c2d_shape_destroy(cap);
}

/* sat.c: a segment whose placed ends coincide (1e-20 long, moved out to 5e14) had no axis of its own
 * and called a circle 250 beside it overlapping. */
TEST(fuzz_collapsed_segment_and_a_circle_above_it)
{
    c2d_shape *s, *c;
    ENSURE_OK(c2d_segment_new(v(0, 0), v(0, 1e-20), &s));
    ENSURE_OK(c2d_shape_set_position(s, v(256, 5e14)));
    ENSURE_OK(c2d_circle_new(256, 5e14 - 256, 1.0000000000000002, &c));
    c2d_distance_result d;
    ENSURE_OK(c2d_distance(s, c, &d));
    ENSURE(d.distance > 250);
    ENSURE_OK(c2d_distance(c, s, &d));
    ENSURE(d.distance > 250);
    c2d_shape_destroy(s);
    c2d_shape_destroy(c);
}

/* sat.c: with a huge radius the "near face" test passed for cores 55 apart, and the face's slab held
 * only far parts of the incident edge: the contact point was put 5e14 away from both shapes. */
TEST(fuzz_contact_point_with_a_huge_capsule)
{
    c2d_shape *s, *cap;
    ENSURE_OK(c2d_segment_new(v(256, 256), v(0, -1e15), &s));
    ENSURE_OK(c2d_capsule_new(v(-1, 1e15), v(0, 1e15), 1e15, &cap));
    c2d_contact k;
    ENSURE_OK(c2d_collide(s, cap, &k));
    ENSURE(k.count >= 1 && k.depth > 0);
    ENSURE(contact_on_surfaces(s, cap, &k, 1e3));
    ENSURE_OK(c2d_collide(cap, s, &k));
    ENSURE(contact_on_surfaces(cap, s, &k, 1e3));
    c2d_shape *t;
    ENSURE_OK(c2d_segment_new(v(0, 1), v(1, 0), &t));
    c2d_shape_destroy(cap);
    ENSURE_OK(c2d_capsule_new(v(7, 56.25), v(1e15, 1e15), 1e15, &cap));
    ENSURE_OK(c2d_collide(t, cap, &k));
    ENSURE(k.count >= 1 && contact_on_surfaces(t, cap, &k, 1e3));
    c2d_shape_destroy(s);
    c2d_shape_destroy(t);
    c2d_shape_destroy(cap);
}

/* sat.c: a segment nearly square to a capsule's face kept only its far end in the face's slab, and
 * the contact point landed 120 above both shapes. */
TEST(fuzz_contact_of_a_segment_square_to_a_capsule)
{
    c2d_shape *cap, *s;
    ENSURE_OK(c2d_capsule_new(v(-1, 2), v(1, 2), 8.5, &cap));
    ENSURE_OK(c2d_segment_new(v(1, 256), v(1.0000000000000002, 8.078125), &s));
    c2d_contact k;
    ENSURE_OK(c2d_collide(cap, s, &k));
    ENSURE(k.count >= 1);
    ENSURE_NEAR(k.depth, 8.5 - 6.078125, 1e-9);
    ENSURE(contact_on_surfaces(cap, s, &k, 1e-9));
    c2d_shape_destroy(cap);
    c2d_shape_destroy(s);
}

/* query.c: a ray collinear with a segment up to rounding, pointing away from it, "hit" at t = 0
 * (every cross product cancelled to zero). */
TEST(fuzz_ray_collinear_with_a_segment_behind_it_misses)
{
    c2d_shape *s;
    ENSURE_OK(c2d_segment_new(v(256, 256), v(0, 0), &s));
    c2d_ray_hit h;
    ENSURE_OK(c2d_raycast(s, v(1e15, 1e15), v(1e15, 999999999999999.88), 1e15, &h));
    ENSURE(h.hit == 0);
    c2d_shape_destroy(s);
}

/* query.c: beside a capsule core 1e12 long, containment measured the distance to the projected point,
 * whose rounding along the core pushed a boundary point out; the aimed ray then missed. */
TEST(fuzz_point_on_a_long_capsule_is_contained)
{
    c2d_shape *cap;
    ENSURE_OK(c2d_capsule_new(v(1e12, 325.265625), v(325.265625, 325.265625), 325.265625, &cap));
    int in = 0;
    c2d_vec2 o = v(327.984375, 4.4450171489537546e-18), p;
    ENSURE_OK(c2d_contains_point(cap, o, &in));
    ENSURE(in == 1);
    ENSURE_OK(c2d_shape_get_position(cap, &p));
    c2d_ray_hit h;
    ENSURE_OK(c2d_raycast(cap, o, tu_sub(p, o), 1.000001, &h));
    ENSURE(h.hit == 1);
    c2d_shape_destroy(cap);
}

/* query.c: far from a small circle, b * u rounds by more than the circle's size; the normal of the hit
 * then pointed along the ray. */
TEST(fuzz_far_ray_normal_faces_the_ray)
{
    c2d_shape *c;
    ENSURE_OK(c2d_circle_new(2, 1, 0.34375, &c));
    c2d_vec2 o = v(1e15, 1e15), d = v(2 - 1e15, 1 - 1e15);
    c2d_ray_hit h;
    ENSURE_OK(c2d_raycast(c, o, d, 2, &h));
    ENSURE(!h.hit || tu_dot(h.normal, d) <= 1e-9 * tu_len(d));
    c2d_shape_destroy(c);
}

/* resolve.c: a mover of no size (a rectangle of denormal width) started its search for a way out at
 * reach 0 and doubled it forever. */
TEST(fuzz_push_out_of_a_point_sized_mover_ends)
{
    c2d_shape *sh[4], *m;
    for (int i = 0; i < 4; i++)
        ENSURE_OK(c2d_rect_new(261.015625, 261.015625 + i * 260.140625, 261.015625, 260.140625, 0, &sh[i]));
    ENSURE_OK(c2d_rect_new(261.015625, 260.140625, DENORM, DENORM, -1, &m));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)sh, 4, NULL, &set));
    c2d_vec2 p;
    ENSURE_OK(c2d_static_set_push_out(set, m, &p));
    ENSURE_NEAR(p.x, 0, 1e-9);
    ENSURE_NEAR(p.y, -129.1953125, 1e-9);
    c2d_static_set_destroy(set);
    for (int i = 0; i < 4; i++)
        c2d_shape_destroy(sh[i]);
    c2d_shape_destroy(m);
}

/* seams.c: an edge shorter than the seam tolerance counted as covered with no neighbour at all, so a
 * rectangle thinner than the tolerance was all seams and invisible to moves. */
TEST(fuzz_short_edges_are_no_seams_without_neighbours)
{
    c2d_shape *r;
    ENSURE_OK(c2d_rect_new(340.484375, 1e-16, 1e-16, 1e-16, 0, &r));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&r, 1, NULL, &set));
    for (int e = 0; e < 4; e++) {
        int seam = 1;
        ENSURE_OK(c2d_static_set_is_seam(set, 0, e, &seam));
        ENSURE_MSG(seam == 0, "edge %d is a seam", e);
    }
    c2d_static_set_destroy(set);
    c2d_shape_destroy(r);
}

/* sweep.c: the Minkowski difference of a point-sized rectangle and a point is one point; its edges got
 * the made-up normal (0, 1) and the point 1.4e15 away was called inside (OVERLAP). */
TEST(fuzz_sweep_of_collapsed_shapes_far_apart)
{
    c2d_shape *a, *b;
    ENSURE_OK(c2d_circle_new(2.2250738585072014e-308, 1e15, DENORM, &a));
    ENSURE_OK(c2d_rect_new(1e15, DENORM, DENORM, DENORM, -2.7904965607477417e-104, &b));
    c2d_toi t;
    ENSURE_OK(c2d_sweep(b, v(0, 0), a, v(3.3125, -DENORM), &t));
    ENSURE(t.state == C2D_TOI_NONE);
    ENSURE_OK(c2d_sweep(a, v(3.3125, -DENORM), b, v(0, 0), &t));
    ENSURE(t.state == C2D_TOI_NONE);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

/* sweep.c: a hull edge of length 0 (a rectangle thinner than the spacing of doubles at 1e15) accepted
 * a hit anywhere on its line: HIT at t = 0 for shapes 1e15 apart. */
TEST(fuzz_sweep_past_a_collapsed_rectangle)
{
    c2d_shape *r, *c;
    ENSURE_OK(c2d_rect_new(-1e15, 1e15, DENORM, 1.5, 0, &r));
    ENSURE_OK(c2d_circle_new(2.2250738585072014e-308, 1e15, DENORM, &c));
    c2d_toi t;
    ENSURE_OK(c2d_sweep(r, v(DENORM, DENORM), c, v(DENORM, 19.984375), &t));
    ENSURE(t.state == C2D_TOI_NONE);
    c2d_shape_destroy(r);
    c2d_shape_destroy(c);
}

/* sat.c: cores a few denormals apart (their squared distance underflows, so the first vertex pair
 * found "touching" wins) took a face that only looked parallel to the noise direction between them,
 * and clipped the far side of the other shape: contact points 12 units off both surfaces. A clipped end
 * deeper than the cores' distance allows now falls back to the closest points. */
TEST(fuzz_denormal_capsule_touching_a_corner_gets_points_on_both)
{
    c2d_vec2 tri[3] = {v(0, 24.390625), v(0, 0), v(48.421875, 3.1415926535897931)};
    c2d_shape *t, *cap, *r, *cap2;
    ENSURE_OK(c2d_polygon_new(tri, 3, &t));
    ENSURE_OK(c2d_capsule_new(v(4, -DENORM), v(0, DENORM), DENORM, &cap));
    ENSURE_OK(c2d_rect_new(0, 0, 0.125, 2.2250738585072014e-308, 1, &r));
    ENSURE_OK(c2d_capsule_new(v(-3.875, 2.2250738585072014e-308), v(0, 2.2250738585072014e-308),
                              2.2250738585072014e-308, &cap2));
    const c2d_shape *pairs[2][2] = {{t, cap}, {r, cap2}};
    for (int k = 0; k < 2; k++)
        for (int swap = 0; swap < 2; swap++) {
            const c2d_shape *a = pairs[k][swap], *b = pairs[k][!swap];
            c2d_contact c;
            ENSURE_OK(c2d_collide(a, b, &c));
            ENSURE(c.count >= 1);
            /* Touching at the scale of the denormal radii: depth 0 or a few denormals, whichever
             * frame the pair is computed in. */
            ENSURE(c.depth <= 1e-300);
            ENSURE(contact_on_surfaces(a, b, &c, 1e-12));
        }
    c2d_shape_destroy(t);
    c2d_shape_destroy(cap);
    c2d_shape_destroy(r);
    c2d_shape_destroy(cap2);
}

/* query.c: a ray 1.4e15 long aimed at a diamond 1e-9 wide runs along two of its edges up to the
 * rounding of its direction; the crossing of such an edge is rounding over almost nothing, and the hit
 * was put 2.8e6 beyond the diamond. The hit now stays within the polygon's extent along the ray. */
TEST(fuzz_grazing_ray_hit_stays_on_a_tiny_far_polygon)
{
    c2d_vec2 pts[4] = {v(3.0000000010000001, 1.000000001e-09), v(3, 2.0000000000000001e-09),
                       v(2.9999999989999999, 9.9999999900000012e-10), v(3, 0)};
    c2d_shape *s;
    ENSURE_OK(c2d_polygon_new(pts, 4, &s));
    c2d_vec2 p, o = v(1e15, 1e15);
    ENSURE_OK(c2d_shape_get_position(s, &p));
    c2d_ray_hit h;
    ENSURE_OK(c2d_raycast(s, o, v(p.x - o.x, p.y - o.y), 1.000001, &h));
    ENSURE(h.hit);
    /* The point is o + t d, rounded at 1e15 (spacing 0.125): within a unit of the diamond. */
    ENSURE(fabs(h.point.x - 3) <= 1 && fabs(h.point.y) <= 1);
    c2d_shape_destroy(s);
}

/* sweep.c: a rectangle of denormal width and height 1e-300 is a point whose four corners coincide; the
 * Minkowski merge stepped over all its edges (no length, so no angle) and gave every edge of the mover
 * the first corner, whose cone (a quadrant) did not hold their normals, so a set's sweep (which asks the
 * cones, for seams) passed through it while c2d_sweep hit. B's edges now take their angle from their
 * normals. */
TEST(fuzz_set_sweep_hits_a_point_sized_rectangle)
{
    c2d_shape *pt, *box;
    ENSURE_OK(c2d_rect_new(DENORM, 0.5, DENORM, 1e-300, 0, &pt));
    ENSURE_OK(c2d_rect_new(-0.00390625, 2, 2, 2, 2, &box));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&pt, 1, NULL, &set));
    c2d_toi one, all;
    int index;
    ENSURE_OK(c2d_sweep(box, v(10, -401.578125), pt, v(0, 0), &one));
    ENSURE_OK(c2d_static_set_sweep(set, box, v(10, -401.578125), &all, &index));
    ENSURE(one.state == C2D_TOI_HIT && all.state == C2D_TOI_HIT && index == 0);
    ENSURE(all.t == one.t);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(box);
    c2d_shape_destroy(pt);
}

/* shape.h (v2_within): a circle of radius 5e-324 "contained" a point 8.4e-309 away, and two such
 * circles that far apart "overlapped": the squares of both distances underflow to 0. Radii whose
 * square underflows compare lengths instead. */
TEST(fuzz_denormal_circle_far_in_its_own_terms_is_apart)
{
    c2d_shape *c, *d;
    ENSURE_OK(c2d_circle_new(DENORM, DENORM, DENORM, &c));
    ENSURE_OK(c2d_circle_new(DENORM, 8.3930456179500974e-309, DENORM, &d));
    int in = 1, o = 1;
    ENSURE_OK(c2d_contains_point(c, v(DENORM, 8.3930456179500974e-309), &in));
    ENSURE(!in);
    ENSURE_OK(c2d_overlap(c, d, &o));
    ENSURE(!o);
    c2d_contact k;
    ENSURE_OK(c2d_collide(c, d, &k));
    ENSURE(k.count == 0);
    c2d_ray_hit h;
    ENSURE_OK(c2d_raycast(c, v(DENORM, 8.3930456179500974e-309), v(1.5707963267948966, -4.4984505774361105e-81),
                          0.86328125, &h));
    ENSURE(!h.hit);
    /* Still inside where it is: the centre itself. */
    ENSURE_OK(c2d_contains_point(c, v(DENORM, DENORM), &in));
    ENSURE(in);
    c2d_shape_destroy(c);
    c2d_shape_destroy(d);
}

/* sweep.c: a rectangle 5.6e-241 by 1.4e-309 turned by -10.16 rad, placed at (0, 164): its long edges
 * came out exactly horizontal (their true tilt is all rounding at 164) while its short edges, of no
 * length, took their turned normals' angle, so the merged hull was out of angle order and an 11-gon
 * moving over it passed through. B's edges now always merge in the order of their normals. */
TEST(fuzz_set_move_stops_at_a_turned_point_sized_rectangle)
{
    c2d_vec2 pv[11] = {v(-995.63173991599638, -514.48524381644233), v(-907.68907978141556, -780.9262015578721),
                       v(-689.65814905964817, -957.52520688439313), v(-410.76222772194274, -988.21332339378444),
                       v(-159.54880020855347, -863.24729092618998), v(-15.776354765746021, -622.30294182225782),
                       v(-25.091626974066344, -341.8784044910862),  v(-184.53708372593303, -111.00648815021685),
                       v(-443.48991909039046, -2.9873949748667314), v(-719.73443751252501, -52.116423821768876),
                       v(-925.56495624380455, -242.79545516116173)};
    c2d_shape *pt, *m;
    ENSURE_OK(c2d_rect_new(0, 164, 5.6240475508213896e-241, 1.3933870288647793e-309, -10.15625, &pt));
    ENSURE_OK(c2d_polygon_new(pv, 11, &m));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&pt, 1, NULL, &set));
    c2d_move_result r;
    ENSURE_OK(c2d_static_set_move(set, m, v(261.015625, 262.546875), NULL, &r, NULL, 0));
    ENSURE(r.count == 1);
    c2d_vec2 p;
    ENSURE_OK(c2d_shape_get_position(m, &p));
    ENSURE_OK(c2d_shape_set_position(m, v(p.x + r.displacement.x, p.y + r.displacement.y)));
    c2d_distance_result d;
    ENSURE_OK(c2d_distance(m, pt, &d));
    ENSURE(d.distance > -1e-9);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(m);
    c2d_shape_destroy(pt);
}

/* sat.c: two capsules of denormal radius in an L, crossing by a few denormals: the reference face's
 * slab held the other core only from the middle of it (a clip fraction of 1/2 of nothing), and the
 * contact point came out 6 units off the first capsule. When every clipped end is beyond reach, the
 * cores' closest points make the contact. */
TEST(fuzz_crossing_denormal_capsules_get_a_point_on_both)
{
    c2d_shape *a, *b;
    ENSURE_OK(c2d_capsule_new(v(DENORM, 24.09375), v(DENORM, 0), DENORM, &a));
    ENSURE_OK(c2d_capsule_new(v(24.09375, DENORM), v(0, -DENORM), DENORM, &b));
    c2d_contact c;
    ENSURE_OK(c2d_collide(a, b, &c));
    ENSURE(c.count >= 1);
    ENSURE(contact_on_surfaces(a, b, &c, 1e-12));
    ENSURE_OK(c2d_collide(b, a, &c));
    ENSURE(c.count >= 1);
    ENSURE(contact_on_surfaces(b, a, &c, 1e-12));
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

/* A row of eight pi-by-pi bricks, each made as the polygon the fuzz input placed (ends rounded at
 * their size), as in crash-set-ball-tiny-on-a-seam-inside-a-row. */
static c2d_status make_pi_row(c2d_shape **s, c2d_static_set **set)
{
    static const double q[8][8] = {
        {2.2204460492503131e-16, 1.5707963267948963, 3.1415926535897931, 1.5707963267948968, 3.1415926535897931,
         4.7123889803846897, -2.2204460492503131e-16, 4.7123889803846897},
        {3.1415926535897931, 1.5707963267948968, 6.2831853071795862, 1.5707963267948972, 6.2831853071795862,
         4.7123889803846906, 3.1415926535897931, 4.7123889803846897},
        {6.2831853071795862, 1.5707963267948968, 9.4247779607693793, 1.5707963267948972, 9.4247779607693793,
         4.7123889803846906, 6.2831853071795862, 4.7123889803846897},
        {9.4247779607693793, 1.5707963267948972, 12.566370614359172, 1.5707963267948977, 12.566370614359172,
         4.7123889803846906, 9.4247779607693793, 4.7123889803846906},
        {12.566370614359172, 1.5707963267948977, 15.707963267948966, 1.5707963267948981, 15.707963267948966,
         4.7123889803846915, 12.566370614359172, 4.7123889803846906},
        {15.707963267948964, 1.5707963267948981, 18.849555921538759, 1.5707963267948986, 18.849555921538755,
         4.7123889803846915, 15.707963267948964, 4.7123889803846915},
        {18.849555921538762, 1.5707963267948981, 21.991148575128555, 1.5707963267948986, 21.991148575128552,
         4.7123889803846915, 18.849555921538759, 4.7123889803846915},
        {21.991148575128552, 1.5707963267948986, 25.132741228718345, 1.570796326794899, 25.132741228718341,
         4.7123889803846923, 21.991148575128548, 4.7123889803846915}};
    for (int i = 0; i < 8; i++) {
        c2d_vec2 p[4];
        for (int k = 0; k < 4; k++)
            p[k] = v(q[i][2 * k], q[i][2 * k + 1]);
        c2d_status st = c2d_polygon_new(p, 4, &s[i]);
        if (st != C2D_OK)
            return st;
    }
    return c2d_static_set_new((const c2d_shape *const *)s, 8, NULL, set);
}

/* resolve.c: a ball of radius 1e-12 centred on the joint of bricks 0 and 1, 1.57 deep in the row, is
 * inside each brick by its radius only, below the touching tolerance: it was not pushed out and flew
 * on inside the row, ending 0.44 inside brick 4. It is inside the union, and leaves through the
 * nearer of the row's faces first. */
TEST(fuzz_tiny_ball_on_a_seam_inside_a_row_is_pushed_out)
{
    c2d_shape *s[8], *dot;
    c2d_static_set *set;
    ENSURE_OK(make_pi_row(s, &set));
    double pi = 3.1415926535897931;
    ENSURE_OK(c2d_circle_new(pi, pi, 1e-12, &dot));
    c2d_vec2 push;
    ENSURE_OK(c2d_static_set_push_out(set, dot, &push));
    ENSURE(push.x == 0 && fabs(push.y + 1.5707963267958964) <= 1e-12);
    c2d_ball b = {v(pi, pi), v(pi, 1e-16), 1e-12};
    c2d_move_result r;
    c2d_sweep_contact c[4];
    ENSURE_OK(c2d_static_set_step_ball(set, &b, pi, NULL, &r, c, 4));
    ENSURE(r.count >= 1 && c[0].pushed_out);
    c2d_shape *end;
    ENSURE_OK(c2d_circle_new(b.position.x, b.position.y, b.radius, &end));
    for (int i = 0; i < 8; i++) {
        c2d_distance_result d;
        ENSURE_OK(c2d_distance(end, s[i], &d));
        ENSURE_MSG(d.distance > -1e-9, "ends %g inside brick %d", d.distance, i);
    }
    c2d_shape_destroy(end);
    c2d_shape_destroy(dot);
    c2d_static_set_destroy(set);
    for (int i = 0; i < 8; i++)
        c2d_shape_destroy(s[i]);
}

/* resolve.c: the same rule for a segment, which has no width at all: lying along the joint of two
 * stacked bricks inside a wall it only touches each, and is inside the wall. Lying on a floor with its
 * end over a joint it is outside: the end of a joint, where the seam meets the surface, is no seam. */
TEST(fuzz_segment_along_a_joint_inside_a_wall_is_pushed_out)
{
    c2d_shape *t[8];
    for (int i = 0; i < 4; i++) {
        ENSURE_OK(c2d_rect_new(0.5 + i, 0.5, 1, 1, 0, &t[2 * i]));
        ENSURE_OK(c2d_rect_new(0.5 + i, 1.5, 1, 1, 0, &t[2 * i + 1]));
    }
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)t, 8, NULL, &set));
    c2d_shape *seg;
    ENSURE_OK(c2d_segment_new(v(1.2, 1), v(2.6, 1), &seg));
    c2d_vec2 push;
    ENSURE_OK(c2d_static_set_push_out(set, seg, &push));
    ENSURE(fabs(push.x) + fabs(push.y) == 1);
    c2d_shape_destroy(seg);
    /* On top of the wall, its left end over the joint x = 1: touching, not inside. */
    ENSURE_OK(c2d_segment_new(v(1, 2), v(1.8, 2), &seg));
    ENSURE_OK(c2d_static_set_push_out(set, seg, &push));
    ENSURE(push.x == 0 && push.y == 0);
    c2d_move_result r;
    c2d_sweep_contact c[4];
    ENSURE_OK(c2d_static_set_move(set, seg, v(0.37, -0.05), NULL, &r, c, 4));
    ENSURE(r.displacement.x == 0.37 && r.displacement.y == 0 && r.count == 1 && !c[0].pushed_out);
    c2d_shape_destroy(seg);
    c2d_static_set_destroy(set);
    for (int i = 0; i < 8; i++)
        c2d_shape_destroy(t[i]);
}

/* sat.c: a box beside the cap of a capsule of radius 1e9. The box's face clipped the capsule's core
 * far from where the cap touches it, and the test that clipped ends reach the full depth allowed 1e-9
 * of the coordinates (2 units there) against a depth of 1.57: the point came out 2.1 inside the
 * capsule and 1.66 outside the box. Both orders now give the point the cap's closest points give. */
TEST(fuzz_huge_capsule_beside_a_box_gets_a_point_on_both)
{
    c2d_vec2 p[4] = {v(1000000001.5707964, 4.7123889803846897), v(999999998.42920363, 4.7123889803846897),
                     v(999999998.42920363, 1.5707963267948968), v(1000000001.5707964, 1.5707963267948963)};
    c2d_shape *a, *b;
    ENSURE_OK(c2d_polygon_new(p, 4, &a));
    ENSURE_OK(c2d_capsule_new(v(-428, 256), v(0, 0), 1000000000, &b));
    c2d_contact c;
    ENSURE_OK(c2d_collide(a, b, &c));
    ENSURE(c.count == 1 && fabs(c.depth - 1.5707963705062866) <= 1e-6);
    ENSURE(contact_on_surfaces(a, b, &c, 1e-6));
    ENSURE_OK(c2d_collide(b, a, &c));
    ENSURE(c.count == 1 && contact_on_surfaces(b, a, &c, 1e-6));
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

/* sweep.c: a capsule of radius 1e9 resting 2.4e-7 above a row of five tiles 1e-16 wide (the fuzz
 * input's polygons, whose corners are rounded at their size). In the
 * Minkowski hull every tile's corners coincide; the one corner cone holding the hit's normal belonged
 * to a tile corner at a joint, so every tile refused the hit and a move down passed through them.
 * Coinciding hull corners are one corner now, and the move stops at the row. */
TEST(fuzz_huge_capsule_stops_at_a_row_of_collapsed_tiles)
{
    static const double q[5][8] = {
        {4.9999999999999987e-17, 5.0000000000000011e-17, 1.4999999999999997e-16, 4.9999999999999987e-17,
         1.5000000000000002e-16, 1.4999999999999997e-16, 5.0000000000000011e-17, 1.5000000000000002e-16},
        {1.4999999999999997e-16, 4.9999999999999987e-17, 2.4999999999999997e-16, 4.9999999999999962e-17,
         2.5000000000000002e-16, 1.4999999999999997e-16, 1.5000000000000002e-16, 1.4999999999999997e-16},
        {2.4999999999999997e-16, 4.9999999999999962e-17, 3.4999999999999997e-16, 4.9999999999999937e-17,
         3.5000000000000002e-16, 1.4999999999999992e-16, 2.5000000000000002e-16, 1.4999999999999997e-16},
        {3.4999999999999997e-16, 4.9999999999999937e-17, 4.5000000000000002e-16, 4.9999999999999913e-17,
         4.5000000000000002e-16, 1.4999999999999992e-16, 3.5000000000000002e-16, 1.4999999999999992e-16},
        {4.5000000000000002e-16, 4.9999999999999913e-17, 5.5000000000000006e-16, 4.9999999999999888e-17,
         5.5000000000000006e-16, 1.4999999999999987e-16, 4.5000000000000002e-16, 1.4999999999999992e-16}};
    c2d_shape *t[5], *cap;
    for (int i = 0; i < 5; i++) {
        c2d_vec2 p[4];
        for (int k = 0; k < 4; k++)
            p[k] = v(q[i][2 * k], q[i][2 * k + 1]);
        ENSURE_OK(c2d_polygon_new(p, 4, &t[i]));
    }
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)t, 5, NULL, &set));
    ENSURE_OK(c2d_capsule_new(v(1000000000, 1000000000), v(18.90625, 1000000000), 1000000000, &cap));
    c2d_move_options o = c2d_move_options_default();
    o.response = C2D_RESPONSE_TOUCH;
    c2d_move_result r;
    ENSURE_OK(c2d_static_set_move(set, cap, v(0, -192.765625), &o, &r, NULL, 0));
    ENSURE(r.count >= 1 && r.displacement.y > -1e-3);
    c2d_toi toi;
    int index;
    ENSURE_OK(c2d_static_set_sweep(set, cap, v(0, -192.765625), &toi, &index));
    ENSURE(toi.state == C2D_TOI_HIT && index >= 0 && toi.t < 1e-6);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(cap);
    for (int i = 0; i < 5; i++)
        c2d_shape_destroy(t[i]);
}

/* world.c: a ray along (5e-324, 0) towards a point-sized rectangle 3.8e-81 ahead. The inverse of
 * the direction overflowed, so the tree's slab test put the box at t = infinity and skipped it, and
 * the world missed what c2d_raycast hits at t = 7.7e242. */
TEST(fuzz_world_ray_with_a_denormal_direction_finds_a_box_far_along_it)
{
    c2d_world *w;
    c2d_shape *pt;
    ENSURE_OK(c2d_world_new(&w));
    ENSURE_OK(c2d_rect_new(3.8035303028579266e-81, DENORM, DENORM, DENORM, 9.0442586846953268e-82, &pt));
    c2d_world_id id;
    ENSURE_OK(c2d_world_add(w, pt, 0, &id));
    c2d_ray_hit one;
    ENSURE_OK(c2d_raycast(pt, v(DENORM, DENORM), v(DENORM, 0), INFINITY, &one));
    ENSURE(one.hit && one.t > 1e242 && one.t < INFINITY);
    c2d_world_ray_hit h;
    ENSURE_OK(c2d_world_raycast(w, v(DENORM, DENORM), v(DENORM, 0), INFINITY, NULL, &h));
    ENSURE(h.ray.hit && h.id == id && h.ray.t == one.t);
    c2d_world_destroy(w);
    c2d_shape_destroy(pt);
}

/* query.c: a capsule 5e-324 long moved to (-477.875, 16.40625), where its two placed ends coincide: its
 * core is a point. The closest-point code that keeps a point just inside a core's end slab from
 * running back along the core measured only across the core's (meaningless) direction, and put the
 * point (1, 1), 20 beyond the surface, inside. */
TEST(fuzz_closest_point_of_a_capsule_whose_ends_coincide)
{
    c2d_shape *s;
    ENSURE_OK(c2d_capsule_new(v(-0.0, 4.9406564584124654e-324), v(4.9406564584124654e-324, 4.9406564584124654e-324),
                              457.78125, &s));
    ENSURE_OK(c2d_shape_set_position(s, v(-477.875, 16.40625)));
    double d = 0;
    ENSURE_OK(c2d_closest_point(s, v(1, 1), NULL, &d));
    double want = hypot(1 + 477.875, 1 - 16.40625) - 457.78125;
    c2d_shape_destroy(s);
    ENSURE_NEAR(d, want, 1e-9);
}

/* query.c: a capsule from (0, 5e-324) to (5e-324, 5e-324), radius 457.78: its squared length underflows,
 * so the projection put the nearest core point of (426.08, -452.55) at the first end, and the guard
 * against points running back along the core then measured only across it: 164 outside came out inside.
 * Where p lies along the core is now measured once, along its exact unit direction. */
TEST(fuzz_closest_point_past_the_end_of_a_denormal_capsule)
{
    c2d_shape *s;
    ENSURE_OK(c2d_capsule_new(v(-0.0, 4.9406564584124654e-324), v(4.9406564584124654e-324, 4.9406564584124654e-324),
                              457.78125, &s));
    double d = 0;
    ENSURE_OK(c2d_closest_point(s, v(426.078125, -452.546875), NULL, &d));
    c2d_shape_destroy(s);
    ENSURE_NEAR(d, hypot(426.078125, 452.546875) - 457.78125, 1e-9);
}

/* query.c: a rectangle of denormal size is a point where its four corners coincide; a ray aimed at it
 * touches it there, and took the normal of one of the two edges at the first corner it listed, which
 * faced away from the ray. The normal is now the one of every edge at the touched point that faces
 * the ray most. */
TEST(fuzz_ray_touching_a_point_sized_rect_gets_a_normal_facing_it)
{
    c2d_shape *s;
    ENSURE_OK(c2d_rect_new(1.5, 24.09375, 4.9406564584124654e-324, 4.9406564584124654e-324, 0.0, &s));
    c2d_ray_hit h;
    c2d_vec2 o = v(325.265625, 325.265625), d = v(1.5 - o.x, 24.09375 - o.y);
    ENSURE_OK(c2d_raycast(s, o, d, 1.000001, &h));
    c2d_shape_destroy(s);
    ENSURE(h.hit);
    ENSURE(h.normal.x * d.x + h.normal.y * d.y <= 0);
}

/* predicates.c: a ray along (5e-324, 0) from (0, 260) past a segment from (-136.5, pi) to (0, 0). The
 * exact sign's slow path scales the direction by a power of two to about 2^400; for a subnormal
 * direction that factor itself (2^1473) overflowed, the products became NaN, both signs 0, and the
 * ray was taken as lying along the segment: a hit at t = 0, 260 away. Each value is scaled itself. */
TEST(fuzz_segment_ray_with_a_subnormal_direction)
{
    c2d_shape *s;
    ENSURE_OK(c2d_segment_new(v(-136.546875, 3.1415926535897931), v(0, 0), &s));
    c2d_ray_hit h;
    ENSURE_OK(c2d_raycast(s, v(0, 260), v(4.9406564584124654e-324, 0), 100.09375, &h));
    c2d_shape_destroy(s);
    ENSURE(!h.hit);
}

/* query.c: a circle of radius 5e-324 at (5e-324, 5e-324) and a ray along (237.45, 5e-324) passing 1e-204
 * below it: the squares of both the radius and the ray's offset underflow to 0, so the ray "touched"
 * it (and the world, whose box test is right, disagreed). Radius and offset compare by lengths there. */
TEST(fuzz_ray_beside_a_subnormal_circle_misses_it)
{
    c2d_shape *s;
    ENSURE_OK(c2d_circle_new(4.9406564584124654e-324, 4.9406564584124654e-324, 4.9406564584124654e-324, &s));
    c2d_ray_hit h;
    ENSURE_OK(c2d_raycast(s, v(-243.546875, -1.0756748696103023e-204), v(237.453125, 4.9406564584124654e-324), 508, &h));
    c2d_shape_destroy(s);
    ENSURE(!h.hit);
}

/* query.c: a ray aimed from (305, 304) at a rectangle 2e-308 wide touches it at its corners, all within
 * rounding of each other along the ray; the normal came from the first corner listed, whose edges face
 * away. It now comes from every corner touched within rounding, the edge facing the ray most. */
TEST(fuzz_ray_touching_a_subnormal_rect_gets_a_normal_facing_it)
{
    c2d_shape *s;
    ENSURE_OK(c2d_rect_new(2.2250738585072014e-308, 2.2250738585072014e-308, 2.2250738585072014e-308,
                           2.2250738585072014e-308, 0.0, &s));
    c2d_ray_hit h;
    c2d_vec2 o = v(305.1875, 304), d = v(2.2250738585072014e-308 - 305.1875, 2.2250738585072014e-308 - 304);
    ENSURE_OK(c2d_raycast(s, o, d, 1.000001, &h));
    c2d_shape_destroy(s);
    ENSURE(h.hit);
    ENSURE(h.normal.x * d.x + h.normal.y * d.y <= 0);
}

/* shape.c: a regular pentagon 2.3e-156 across; the products of its coordinates underflow, its area came
 * out 0 and its position NaN. The centroid is now measured scaled by a power of two. (Far smaller ones
 * are refused as degenerate, the convexity test's products underflowing too.) */
TEST(fuzz_polygon_1e_156_wide_has_its_centroid)
{
    for (int j = 0; j < 3; j++) {
        double scale = j == 0 ? 2.3199125903595399e-156 : j == 1 ? 1e-160 : 3e-158;
        c2d_vec2 p[5];
        for (int i = 0; i < 5; i++)
            p[i] = v(scale * cos(158.03125 + 2 * TU_PI * i / 5), 4.9406564584124654e-324 + scale * sin(158.03125 + 2 * TU_PI * i / 5));
        c2d_shape *s;
        ENSURE_OK(c2d_polygon_new(p, 5, &s));
        c2d_vec2 c;
        ENSURE_OK(c2d_shape_get_position(s, &c));
        ENSURE(isfinite(c.x) && isfinite(c.y));
        ENSURE(fabs(c.x) <= 1e-3 * scale && fabs(c.y) <= 1e-3 * scale); /* a regular polygon's centre */
        int in = 0;
        ENSURE_OK(c2d_contains_point(s, c, &in));
        ENSURE(in);
        c2d_shape_destroy(s);
    }
}

/* sat.c: a 9-gon a billion long (a hull made at 1e9, placed back near the origin) has a corner that
 * rounding bends a hair inwards; a circle whose centre lies 2.16 inside its long edge, beyond that
 * corner's short edge, was found apart (the walk fell back to the corner, 3e9 away) while c2d_distance
 * put it 134 deep. */
TEST(fuzz_circle_inside_a_sliver_a_billion_long_overlaps_it)
{
    /* 14 points on a circle of radius 10, one of them taken 1e9 times as far out: the hull. */
    c2d_vec2 pts[14];
    for (int i = 0; i < 14; i++) {
        double t = 1.0000000000000001e-09 + 6.283185307179586 * i / 14;
        pts[i] = v(10 * cos(t), 136.53125 + 10 * sin(t));
    }
    pts[6] = v(pts[6].x * 1000000000, 136.53125 + (pts[6].y - 136.53125) * 1000000000);
    c2d_shape *p, *c;
    ENSURE_OK(c2d_hull_new(pts, 14, &p));
    ENSURE_OK(c2d_shape_set_position(p, v(-0x1.394p-307, -0x1.394p-307)));
    ENSURE_OK(c2d_circle_new(10, 0, 136.53125, &c));
    int o1 = 0, o2 = 0;
    ENSURE_OK(c2d_overlap(p, c, &o1));
    ENSURE_OK(c2d_overlap(c, p, &o2));
    c2d_contact k;
    ENSURE_OK(c2d_collide(p, c, &k));
    c2d_distance_result d;
    ENSURE_OK(c2d_distance(p, c, &d));
    ENSURE(o1 && o2 && k.count == 1);
    ENSURE(d.distance < -100);
    ENSURE(fabs(k.depth + d.distance) <= 1e-9 * 1e10); /* the scene's rounding: coordinates of 1e10 */
    c2d_shape_destroy(p);
    c2d_shape_destroy(c);
}

TEST(fuzz_compound_sweep_starting_within_the_push_slack_keeps_a_depth)
{
    /* A capsule of radius 1e12 whose flat underside lies along y = 0, over a concave 12-gon with a
     * diamond hole that reaches 3.97 above it. At that scale the whole shape's push is within the
     * rounding slack of its overlap tests (depth 0), while its parts' sweep finds them deeper than
     * touching: the sweep reported OVERLAP with depth 0 ("deeper than touching" with no depth). It now
     * keeps the parts' answer, as a set sweep does. */
    static const c2d_vec2 outline[12] = {
        {13.980738906688789, 0.39206856131824241}, {12.547606544579736, 1.584203551951104},
        {11.503781546744605, 3.0493673212111405},  {9.4778952311197937, 3.9657794454952415},
        {8.8000000000000007, 2.078460969082653},   {6.2992674787461329, 0.8628897995306184},
        {8.4077044373244849, -0.15682742452729695}, {7.5941126160672718, -2.1099066083202205},
        {9.8433685693359383, -1.1897338336485723}, {10.130806258460284, -1.9957178464772072},
        {11.838477631085023, -1.8384776310850239}, {13.369261336326371, -1.2681001725164425}};
    static const c2d_vec2 hole[4] = {
        {11.199999999999999, 0}, {10, 1.2}, {8.8000000000000007, 1.4695761589768238e-16}, {10, -1.2}};
    const c2d_vec2 *holes[1] = {hole};
    int hole_counts[1] = {4};
    c2d_shape *cc, *cap;
    ENSURE_OK(c2d_concave_new(outline, 12, holes, hole_counts, 1, &cc));
    ENSURE_OK(c2d_capsule_new(v(148.578125, 1e12), v(1e12, 1e12), 1e12, &cap));
    c2d_toi t, r;
    ENSURE_OK(c2d_sweep(cap, v(-4.4984505774361105e-81, -4.4984505774361105e-81), cc, v(0, 0), &t));
    ENSURE_OK(c2d_sweep(cc, v(0, 0), cap, v(-4.4984505774361105e-81, -4.4984505774361105e-81), &r));
    c2d_shape_destroy(cc);
    c2d_shape_destroy(cap);
    ENSURE_MSG(t.state == C2D_TOI_OVERLAP && t.depth > 0 && r.state == C2D_TOI_OVERLAP && r.depth > 0,
               "states %d and %d, depths %g and %g", (int)t.state, (int)r.state, t.depth, r.depth);
    /* The outline's top vertex is the deepest: 3.9658 above the underside (coordinates of 1e12 round to
     * 1.2e-4). */
    ENSURE_MSG(fabs(t.depth - 3.9657794454952415) <= 1e-3 && fabs(r.depth - 3.9657794454952415) <= 1e-3,
               "depths %.17g and %.17g", t.depth, r.depth);
}

TEST(fuzz_concave_joints_stay_seams_beside_a_segment_a_billion_long)
{
    /* A concave 10-gon with two holes (one with a repeated point), in a static set with a segment 1e9
     * long: the parts' joints were matched to a tolerance of 1e-9 of the whole set's magnitude, 1 unit
     * here, as long as some of the parts' edges, and several joints lost their seams. The parts' own
     * coordinates set it now: the member's seams are those it has alone. */
    static const c2d_vec2 outline[10] = {
        {6.4721359549995787, 15.297717981660213},  {2.4721359549995778, 12.391547869638771},
        {-2.4721359549995805, 12.391547869638771}, {-6.4721359549995805, 15.297717981660217},
        {-8, 20},                                  {-6.4721359549995787, 24.702282018339787},
        {-2.4721359549995787, 27.608452130361229}, {2.4721359549995796, 27.608452130361229},
        {6.4721359549995796, 24.702282018339787},  {8, 20}};
    static const c2d_vec2 h1[5] = {{3.1708203932499366, 18.858732180445816}, {1.8291796067500627, 19.294657697249033},
                                   {1.829179606750063, 20.705342302750967},  {3.1708203932499366, 21.141267819554184},
                                   {4, 20}};
    static const c2d_vec2 h2[5] = {{-1.5999999999999999, 21.600000000000001}, {-2.7999999999999998, 22.800000000000001},
                                   {-2.7999999999999998, 22.800000000000001}, {-4, 21.600000000000001},
                                   {-2.7999999999999998, 20.400000000000002}};
    const c2d_vec2 *holes[2] = {h1, h2};
    int counts[2] = {5, 5};
    c2d_shape *cc, *seg;
    ENSURE_OK(c2d_concave_new(outline, 10, holes, counts, 2, &cc));
    ENSURE_OK(c2d_segment_new(v(-136.546875, 1e9), v(0, 0), &seg));
    const c2d_shape *shapes[2] = {cc, seg};
    c2d_static_set_options opt;
    memset(&opt, 0, sizeof opt);
    opt.seam_tolerance = 4.9406564584124654e-324;
    c2d_static_set *alone, *with;
    ENSURE_OK(c2d_static_set_new(shapes, 1, &opt, &alone));
    ENSURE_OK(c2d_static_set_new(shapes, 2, &opt, &with));
    int edges = 0, seams = 0, differ = 0;
    for (int e = 0;; e++) {
        int a, b;
        if (c2d_static_set_is_seam(alone, 0, e, &a) != C2D_OK)
            break;
        ENSURE_OK(c2d_static_set_is_seam(with, 0, e, &b));
        edges++;
        seams += a;
        differ += a != b;
    }
    c2d_static_set_destroy(alone);
    c2d_static_set_destroy(with);
    c2d_shape_destroy(cc);
    c2d_shape_destroy(seg);
    ENSURE_MSG(edges > 30 && seams > 10 && differ == 0, "%d edges, %d seams alone, %d differ beside the segment",
               edges, seams, differ);
}

TEST(fuzz_concave_pair_near_the_coordinate_limit_gets_its_contact)
{
    /* A concave 13-gon whose points reach 9e14, near C2D_MAX_COORDINATE, against itself (and a copy
     * moved a little). The pair's contact finds how far one shape must move along a direction to clear
     * the other by placing its parts beyond the other's reach and sweeping them back: at this size that
     * sweep is longer than twice the coordinate limit, and c2d_collide and c2d_distance returned
     * C2D_ERR_RANGE for valid shapes. The sweep now goes in as many pieces as the range needs. */
    static const c2d_vec2 ring[13] = {
        {749633074696201.88, 400687226302101.06},  {729864072697935.88, 683592302022874.38},
        {175000000000100.12, 303108891324556.62},  {-88215426296504.281, 895666254004980.38},
        {-530330085889810.5, 530330085889913.81},  {-646870072336827.75, 63711141214217.68},
        {-837825201130837.12, -447826899984694.62}, {-783844636914286.5, -565709601003781.25},
        {-729864072697735.75, -683592302022867.88}, {-124999999999900.02, -216506350946106.44},
        {100.046875, -249999999999996.88},          {275000000000100.19, -476313972081438.25},
        {476313972081541.25, -274999999999997.12}};
    c2d_shape *a, *b;
    ENSURE_OK(c2d_concave_new(ring, 13, NULL, NULL, 0, &a));
    ENSURE_OK(c2d_shape_clone(a, &b));
    for (int k = 0; k < 2; k++) {
        c2d_contact c;
        c2d_distance_result d;
        c2d_status sc = c2d_collide(a, b, &c), sd = c2d_distance(a, b, &d);
        ENSURE_MSG(sc == C2D_OK && sd == C2D_OK, "statuses %d and %d (move %d)", (int)sc, (int)sd, k);
        ENSURE(c.count > 0 && c.depth > 0 && d.distance < 0);
        ENSURE_NEAR(-d.distance, c.depth, 1e-9 * c.depth);
        /* The push separates them to touching, to the rounding of coordinates of 1e15 (where it keeps
         * the shape within the coordinate range: the push of a shape from itself may not). */
        if (c2d_shape_move(b, tu_v(c.normal.x * c.depth, c.normal.y * c.depth)) == C2D_OK) {
            ENSURE_OK(c2d_distance(a, b, &d));
            ENSURE_MSG(fabs(d.distance) <= 1e-9 * c.depth, "left %g apart after the push of %g", d.distance,
                       c.depth);
        }
        c2d_shape_destroy(b);
        ENSURE_OK(c2d_shape_clone(a, &b));
        ENSURE_OK(c2d_shape_move(b, tu_v(3e13, -2e13)));
    }
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(fuzz_concave_closest_point_in_a_hole_on_a_joint)
{
    /* A concave 12-gon with a diamond hole, from (10, 0) inside it: the nearest point of its boundary is
     * the hole's corner (9.2, 0.8), 1.13 away. Part 0's edge (8.6, 1.4)-(11.84, -1.84) runs along the
     * hole and then along part 1 (the corner between, within rounding of that line, went when the part
     * was measured from the position), so it is neither seam nor surface as a whole; the closest point
     * took it as surface and answered (10, 0) itself, on the joint, at distance -4.4e-16. It is measured
     * to the outline and the holes now. */
    static const c2d_vec2 ring[12] = {
        {13.980738906688789, 0.39206856131824241},  {12.547606544579736, 1.584203551951104},
        {11.503781546744605, 3.0493673212111405},   {9.4778952311197937, 3.9657794454952415},
        {8.8000000000000007, 2.078460969082653},    {6.2992674787461329, 0.8628897995306184},
        {8.4077044373244849, -0.15682742452729695}, {7.5941126160672718, -2.1099066083202205},
        {9.8433685693359383, -1.1897338336485723},  {10.130806258460284, -1.9957178464772072},
        {11.838477631085023, -1.8384776310850239},  {13.369261336326371, -1.2681001725164425}};
    static const c2d_vec2 hole[4] = {{9.1999999999999993, 0.80000000000000004},
                                     {8.5999999999999996, 1.3999999999999999},
                                     {8, 0.80000000000000016},
                                     {8.5999999999999996, 0.20000000000000007}};
    const c2d_vec2 *holes[1] = {hole};
    int counts[1] = {4}, in = 0;
    c2d_shape *s;
    ENSURE_OK(c2d_concave_new(ring, 12, holes, counts, 1, &s));
    c2d_vec2 p = v(10, 0), at;
    double d;
    ENSURE_OK(c2d_contains_point(s, p, &in));
    ENSURE_OK(c2d_closest_point(s, p, &at, &d));
    c2d_shape_destroy(s);
    ENSURE(in == 1);
    ENSURE_NEAR(at.x, hole[0].x, 1e-14);
    ENSURE_NEAR(at.y, hole[0].y, 1e-14);
    ENSURE_NEAR(d, -tu_len(tu_sub(p, hole[0])), 1e-14);
}

/* A chain (a closed regular n-gon of radius r about the origin, a vertex at (r, 0)) and an open chain
 * whose segment runs along y = 0 from x0 to 3r. */
static c2d_status chain_pair(int n, double r, double x0, c2d_shape **ring, c2d_shape **path)
{
    c2d_vec2 v[12];
    for (int k = 0; k < n; k++) {
        double a = 2 * TU_PI * k / n;
        v[k] = tu_v(r * cos(a), r * sin(a));
        if (k == 0)
            v[k] = tu_v(r, 0); /* exactly on the path's line */
    }
    c2d_status st = c2d_chain_new(v, n, C2D_CHAIN_CLOSED, ring);
    c2d_vec2 p[3] = {{x0, 0}, {3 * r, 0}, {3 * r, 5 * r}};
    return st == C2D_OK ? c2d_chain_new(p, 3, 0, path) : st;
}

TEST(fuzz_chain_through_a_joint_of_another_chain_overlaps_at_the_start)
{
    /* Found by the fixed-seed run of suite 51 (the corpus grew): an open chain whose segment runs from
     * inside a closed hexagon chain out through one of its vertices crosses it, but c2d_sweep of the
     * two answered HIT later: each part of the hexagon only touched the segment, at its end. Both
     * orders, for rings of 3 to 12 sides; a segment that only touches the vertex from outside stays a
     * touch. */
    for (int n = 3; n <= 12 && !c2d_test_failed(); n++) {
        c2d_shape *ring, *path;
        ENSURE_OK(chain_pair(n, 2, 0, &ring, &path));
        c2d_toi t;
        ENSURE_OK(c2d_sweep(path, tu_v(0, -3), ring, tu_v(0, 0), &t));
        ENSURE_MSG(t.state == C2D_TOI_OVERLAP, "n %d: state %d, not OVERLAP", n, (int)t.state);
        ENSURE_OK(c2d_sweep(ring, tu_v(0, 3), path, tu_v(0, 0), &t));
        ENSURE_MSG(t.state == C2D_TOI_OVERLAP, "n %d (ring moving): state %d", n, (int)t.state);
        c2d_shape_destroy(ring);
        c2d_shape_destroy(path);
        /* From the vertex outwards only: the path touches the ring there and moves off it. */
        ENSURE_OK(chain_pair(n, 2, 2, &ring, &path));
        ENSURE_OK(c2d_sweep(path, tu_v(1, 0), ring, tu_v(0, 0), &t));
        ENSURE_MSG(t.state != C2D_TOI_OVERLAP, "n %d: a touch at the vertex taken for an overlap", n);
        c2d_shape_destroy(ring);
        c2d_shape_destroy(path);
    }
}
