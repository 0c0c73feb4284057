/* test_slide.c - a mover sliding along a floor while pressing into it (issue 22, item 7): the press is
 * taken by the floor and the part along it is kept, whatever the floor is made of (tiles, one chain of
 * collinear segments, one concave polygon), tilted or flat, at every scale. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

TEST(slide_box_along_a_tilted_chain_floor_takes_the_press)
{
    /* Five collinear segments of a tilted chain; a small turned box touching it, moved along it and a
     * little into it. The box ended with the whole press inside the chain. */
    static const double pts[12] = {
        -0.010737525764852762, -0.37508955970406532, -0.010057662764082537, -0.37546313377243212,
        -0.0091032289895041016, -0.37598758017965234, -0.0078820987553765067, -0.3766585721133977,
        -0.0070765834503876092, -0.37710119015449639, -0.0063554923880253331, -0.37749741839683998};
    c2d_vec2 p[6];
    for (int i = 0; i < 6; i++)
        p[i] = V(pts[2 * i], pts[2 * i + 1]);
    c2d_shape *chain, *box;
    c2d_static_set *set;
    ENSURE_OK(c2d_chain_new(p, 6, 0, &chain));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&chain, 1, NULL, &set));
    const double w = 0.00046020493321120739;
    ENSURE_OK(c2d_rect_new(-0.010327141664935308, -0.37557761149909508, w, w, -0.50244722012430421, &box));
    c2d_move_result res;
    c2d_sweep_contact c[8];
    c2d_vec2 d = V(0.0025356469724875283, -0.0013922428515362861);
    ENSURE_OK(c2d_static_set_move(set, box, d, NULL, &res, c, 8));
    ENSURE_OK(c2d_shape_move(box, res.displacement));
    c2d_contact ct;
    ENSURE_OK(c2d_collide(box, chain, &ct));
    /* The floor's direction, and its normal towards the box (which lies under this chain). */
    double fx = pts[10] - pts[0], fy = pts[11] - pts[1], fl = hypot(fx, fy);
    fx /= fl;
    fy /= fl;
    double along = d.x * fx + d.y * fy, got_along = res.displacement.x * fx + res.displacement.y * fy;
    double got_across = res.displacement.x * fy - res.displacement.y * fx;
    ENSURE_MSG(ct.count == 0 || ct.depth <= 1e-15, "the box ends %.3g inside the chain (%d contacts met)", ct.depth,
               res.count);
    /* The whole press (9.2e-7) is taken; what is left is the gap of 1e-14 the box started with. */
    ENSURE_MSG(fabs(got_across) <= 2e-14, "the box moved %.3g across the floor", got_across);
    ENSURE_NEAR(got_along, along, 1e-14);
    ENSURE(res.count == 1 && c[0].response == C2D_RESPONSE_SLIDE);
    ENSURE_NEAR(c[0].normal.x, fy, 1e-12);
    ENSURE_NEAR(c[0].normal.y, -fx, 1e-12);
    c2d_shape_destroy(box);
    c2d_shape_destroy(chain);
    c2d_static_set_destroy(set);
}

TEST(slide_box_a_little_through_a_tilted_chain_is_pushed_back_through_its_face)
{
    /* The same cause seen by push-out and c2d_collide: a box lying flat across four joints of a tilted
     * chain, 3e-5 through it. The joints hid both faces, so no exit through the face counted as clean,
     * and both answers pushed the box 0.042 out along the chain, past its end. */
    static const double pts[14] = {
        1.2440397377658734, -0.7758435203287416,  1.2147522631502374, -0.77427799659130547,
        1.1988008145699844, -0.77342533272299274, 1.1908527367380268, -0.77300047859418108,
        1.1795157883477221, -0.7723944768119162,  1.1536808236636544, -0.77101350248758371,
        1.1232661035688019, -0.76938772331403393};
    c2d_vec2 p[7], v[4];
    for (int i = 0; i < 7; i++)
        p[i] = V(pts[2 * i], pts[2 * i + 1]);
    v[0] = V(1.1723525859320898, -0.7791841609619121);
    v[1] = V(1.2114208062503664, -0.7812725016976817);
    v[2] = V(1.2118047325962455, -0.7740900918495752);
    v[3] = V(1.172736512277969, -0.7720017511138056);
    c2d_shape *chain, *box;
    c2d_static_set *set;
    ENSURE_OK(c2d_chain_new(p, 7, 0, &chain));
    ENSURE_OK(c2d_polygon_new(v, 4, &box));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&chain, 1, NULL, &set));
    /* The chain's normal away from the box, which lies under it. */
    double fx = pts[12] - pts[0], fy = pts[13] - pts[1], fl = hypot(fx, fy);
    c2d_vec2 n = V(fy / fl, -fx / fl);
    c2d_contact ct;
    ENSURE_OK(c2d_collide(box, chain, &ct));
    ENSURE(ct.count > 0);
    ENSURE_MSG(fabs(ct.depth - 3.0305e-5) <= 1e-9, "depth %.17g", ct.depth);
    ENSURE_NEAR(ct.normal.x, n.x, 1e-9);
    ENSURE_NEAR(ct.normal.y, n.y, 1e-9);
    c2d_vec2 out;
    ENSURE_OK(c2d_static_set_push_out(set, box, &out));
    ENSURE_NEAR(out.x, -ct.depth * n.x, 1e-15);
    ENSURE_NEAR(out.y, -ct.depth * n.y, 1e-15);
    c2d_shape_destroy(box);
    c2d_shape_destroy(chain);
    c2d_static_set_destroy(set);
}
