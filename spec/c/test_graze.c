/* test_graze.c - a mover sliding along one segment of a chain onto the next, which bends away from its
 * path by a hair: it meets the next segment at a grazing angle, and must stop on it (or slide on
 * along it), never end inside it. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* The deepest overlap of the mover with any of the shapes (0 when apart or touching). */
static double graze_depth(const c2d_shape *mover, c2d_shape *const *shapes, int n)
{
    double deepest = 0.0;
    for (int i = 0; i < n; i++) {
        c2d_contact ct;
        if (c2d_collide(mover, shapes[i], &ct) != C2D_OK)
            return INFINITY;
        if (ct.count > 0 && ct.depth > deepest)
            deepest = ct.depth;
    }
    return deepest;
}

/* The colleague's case: a box 1815.7 x 3512.1 slides along the first segment of a chain by (300, -60)
 * onto the second, 1.7e-5 rad steeper. It ended 6.5e-4 inside the second segment; built as two
 * separate segments, the same move stops at t = 0.886. */
TEST(graze_box_slides_along_a_chain_onto_a_segment_a_hair_steeper)
{
    c2d_vec2 p[3] = {{-52896.478920506357, -23435.490816590067},
                     {-45141.520102665527, -20000.107540383371},
                     {-42943.647465250695, -19026.413292061945}};
    c2d_shape *box, *floors[3];
    ENSURE_OK(c2d_rect_new(-46251.973699644164, -18333.811369906925, 1815.688103578603, 3512.1010809714671, 0,
                           &box));
    ENSURE_OK(c2d_chain_new(p, 3, 0, &floors[0]));
    ENSURE_OK(c2d_segment_new(p[0], p[1], &floors[1]));
    ENSURE_OK(c2d_segment_new(p[1], p[2], &floors[2]));
    c2d_vec2 d = V(300, -60);
    c2d_aabb bb;
    ENSURE_OK(c2d_shape_get_aabb(box, &bb));
    double unit = 1.0 + fmax(fmax(fabs(bb.min.x), fabs(bb.max.x)), fmax(fabs(bb.min.y), fabs(bb.max.y)));
    /* The chain alone, then the two segments: each must end at most touching. */
    for (int how = 0; how < 2; how++) {
        c2d_static_set *set;
        int n = how == 0 ? 1 : 2;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)(how == 0 ? floors : floors + 1), n, NULL, &set));
        c2d_move_result r;
        c2d_sweep_contact c[8];
        c2d_status st = c2d_static_set_move(set, box, d, NULL, &r, c, 8);
        c2d_static_set_destroy(set);
        ENSURE_OK(st);
        c2d_shape *moved;
        ENSURE_OK(c2d_shape_clone(box, &moved));
        ENSURE_OK(c2d_shape_move(moved, r.displacement));
        double depth = graze_depth(moved, floors + (how == 0 ? 0 : 1), n);
        c2d_shape_destroy(moved);
        ENSURE_MSG(depth <= 1e-13 * unit, "%s: the box ends %.3g inside (moved by (%.17g, %.17g), %d contacts)",
                   how == 0 ? "chain" : "two segments", depth, r.displacement.x, r.displacement.y, r.count);
        /* It met the second segment and stopped on it: at most 0.886 of the way along x (less
         * slides less), and not at the start (no snag on the first segment). */
        ENSURE_MSG(r.count >= 1 && r.displacement.x > 200 && r.displacement.x < 300,
                   "%s: moved by (%.17g, %.17g), %d contacts", how == 0 ? "chain" : "two segments",
                   r.displacement.x, r.displacement.y, r.count);
    }
    for (int i = 0; i < 3; i++)
        c2d_shape_destroy(floors[i]);
    c2d_shape_destroy(box);
}

