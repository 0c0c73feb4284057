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

/* ---- the property: over random floors, a slide pressing into the floor keeps exactly its part along ---- *
 *
 * A floor of 2 to 12 pieces along one line, flat or turned any way, at a scale of 0.01 to 1000 and up
 * to 50 scales from the origin, its joints unevenly spaced so that rounding leaves each off the line by
 * its own amount: tiles (turned rectangles), one chain (the mover on either face) or one concave
 * polygon (a zigzag underneath splits it into parts). A box turned with the floor (a quarter-turn more
 * now and then) or a capsule along it stands on it, and moves along it while pressing into it by a
 * millionth to a tenth of the scale. Before the fix, about one chain slide in ten ended with the whole
 * press inside the chain. */

enum { FLOOR_TILES, FLOOR_CHAIN, FLOOR_CONCAVE, FLOOR_KINDS };
#define SLIDE_MAX_SEGS 12

static const char *const floor_names[FLOOR_KINDS] = {"tiles", "chain", "concave"};

typedef struct slide_case {
    int kind, segs, capsule;
    double s;                      /* the scene's scale */
    c2d_vec2 dir, up;              /* the floor's direction, and its normal towards the mover */
    c2d_vec2 p[SLIDE_MAX_SEGS + 1]; /* the joints along the floor's surface */
    c2d_shape *floor[SLIDE_MAX_SEGS];
    int nfloor;
    c2d_shape *mover;
    c2d_vec2 d;      /* the displacement */
    double along;    /* its part along the floor */
} slide_case;

static void slide_case_free(slide_case *c)
{
    for (int i = 0; i < c->nfloor; i++)
        c2d_shape_destroy(c->floor[i]);
    c->nfloor = 0;
    c2d_shape_destroy(c->mover);
    c->mover = NULL;
}

static void slide_case_print(const slide_case *c)
{
    printf("  floor %s, %d segments, scale %.17g, dir (%.17g, %.17g), up (%.17g, %.17g)\n", floor_names[c->kind],
           c->segs, c->s, c->dir.x, c->dir.y, c->up.x, c->up.y);
    printf("  joints:");
    for (int k = 0; k <= c->segs; k++)
        printf(" %.17g, %.17g,", c->p[k].x, c->p[k].y);
    printf("\n");
    c2d_vec2 pos, v[4];
    double angle, r;
    int n = 0;
    c2d_shape_get_position(c->mover, &pos);
    c2d_shape_get_angle(c->mover, &angle);
    c2d_shape_get_radius(c->mover, &r);
    c2d_shape_get_vertices(c->mover, v, 4, &n);
    printf("  mover %s at (%.17g, %.17g) angle %.17g radius %.17g, vertices:", c->capsule ? "capsule" : "box", pos.x,
           pos.y, angle, r);
    for (int k = 0; k < n; k++)
        printf(" (%.17g, %.17g)", v[k].x, v[k].y);
    printf("\n  displacement (%.17g, %.17g)\n", c->d.x, c->d.y);
}

/* A scale drawn over five decades without libm (pow may differ between platforms by a rounding). */
static double draw_decades(double lowest)
{
    unsigned long long k = c2d_test_rand() % 5;
    double m = c2d_test_uniform(1.0, 10.0);
    double f = lowest;
    for (unsigned long long i = 0; i < k; i++)
        f *= 10.0;
    return f * m;
}

/* Builds a random floor and a mover touching it, placed to slide along it. Returns C2D_OK. */
static c2d_status slide_case_new(slide_case *c)
{
    memset(c, 0, sizeof *c);
    c->kind = (int)(c2d_test_rand() % FLOOR_KINDS);
    c->capsule = (int)(c2d_test_rand() % 3 == 0);
    c->s = draw_decades(0.01);
    c->segs = 2 + (int)(c2d_test_rand() % (SLIDE_MAX_SEGS - 1));
    /* Flat a quarter of the time, else tilted any way round (the floor may face down). */
    double theta = 0.0;
    if (c2d_test_rand() % 4 != 0)
        theta = c2d_test_uniform(-3.14159, 3.14159);
    double sn, cs;
    c2d_sincos(theta, &sn, &cs);
    c->dir = V(cs, sn);
    c->up = V(-sn, cs);
    /* The floor stands away from the origin, up to 50 times its scale, as level data does. */
    double ox = c2d_test_uniform(-50.0, 50.0);
    double oy = c2d_test_uniform(-50.0, 50.0);
    c2d_vec2 o = V(ox * c->s, oy * c->s);
    /* Joints at uneven spacing along the line: each is off it by the rounding of its coordinates. */
    double u[SLIDE_MAX_SEGS + 1];
    u[0] = 0.0;
    for (int k = 1; k <= c->segs; k++) {
        double step = c2d_test_uniform(0.05, 1.0);
        u[k] = u[k - 1] + step * c->s;
    }
    for (int k = 0; k <= c->segs; k++)
        c->p[k] = V(o.x + c->dir.x * u[k], o.y + c->dir.y * u[k]);
    double depth = c2d_test_uniform(0.2, 1.0) * c->s;
    c2d_status st = C2D_OK;
    if (c->kind == FLOOR_TILES) {
        /* Turned rectangles side by side under the line: the library places their corners, so the
         * joints are where two tiles' rounded corners nearly meet. */
        for (int k = 0; k < c->segs && st == C2D_OK; k++) {
            double um = 0.5 * (u[k] + u[k + 1]);
            double cx = o.x + c->dir.x * um - c->up.x * 0.5 * depth;
            double cy = o.y + c->dir.y * um - c->up.y * 0.5 * depth;
            st = c2d_rect_new(cx, cy, u[k + 1] - u[k], depth, theta, &c->floor[k]);
            if (st == C2D_OK)
                c->nfloor++;
        }
    } else if (c->kind == FLOOR_CHAIN) {
        st = c2d_chain_new(c->p, c->segs + 1, 0, &c->floor[0]);
        if (st == C2D_OK)
            c->nfloor = 1;
        /* A chain has two faces: the mover may lie on either. */
        if (c2d_test_rand() % 2) {
            c->up = V(-c->up.x, -c->up.y);
            c->dir = V(-c->dir.x, -c->dir.y);
            c2d_vec2 q[SLIDE_MAX_SEGS + 1];
            double w[SLIDE_MAX_SEGS + 1];
            for (int k = 0; k <= c->segs; k++) {
                q[k] = c->p[c->segs - k];
                w[k] = u[c->segs] - u[c->segs - k];
            }
            memcpy(c->p, q, sizeof q);
            memcpy(u, w, sizeof w);
            theta += 3.141592653589793;
        }
    } else {
        /* One concave polygon: the floor on top, a zigzag underneath (so that it is split into parts
         * whose joints reach the floor). */
        c2d_vec2 ring[2 * (SLIDE_MAX_SEGS + 1)];
        int n = 0;
        for (int k = 0; k <= c->segs; k++)
            ring[n++] = c->p[k];
        for (int k = c->segs; k >= 0; k--) {
            double dk = k % 2 ? 0.4 * depth : depth;
            ring[n++] = V(c->p[k].x - c->up.x * dk, c->p[k].y - c->up.y * dk);
        }
        st = c2d_concave_new(ring, n, NULL, NULL, 0, &c->floor[0]);
        if (st == C2D_OK)
            c->nfloor = 1;
    }
    if (st != C2D_OK)
        return st;
    /* The mover: its length along the floor at most half the floor's. */
    double total = u[c->segs];
    double len = c2d_test_uniform(0.05, 0.5) * total;
    double thick = c2d_test_uniform(0.05, 0.8) * (len < c->s ? len : c->s);
    double half_along = 0.5 * len, half_up = 0.5 * thick;
    /* Where it starts and how far it goes along: start and end over the floor. */
    double room = total - 2 * half_along;
    double go = c2d_test_uniform(0.0, 1.0);
    c->along = go * room;
    double start = c2d_test_uniform(0.0, 1.0);
    double u0 = half_along + start * (room - c->along);
    if (c2d_test_rand() % 2) {
        u0 = total - u0;
        c->along = -c->along;
    }
    /* Pressing into the floor by up to a tenth of the scale, down to a millionth. */
    double press = draw_decades(1e-6) * c->s;
    c->d = V(c->dir.x * c->along - c->up.x * press, c->dir.y * c->along - c->up.y * press);
    /* Standing on the floor (touching, up to the rounding of placing it). */
    c2d_vec2 base = V(c->p[0].x + c->dir.x * u0, c->p[0].y + c->dir.y * u0);
    c2d_vec2 centre = V(base.x + c->up.x * half_up, base.y + c->up.y * half_up);
    if (c->capsule) {
        double h = half_along - half_up;
        st = c2d_capsule_new(V(centre.x - c->dir.x * h, centre.y - c->dir.y * h),
                             V(centre.x + c->dir.x * h, centre.y + c->dir.y * h), half_up, &c->mover);
    } else {
        /* A box turned with the floor, a quarter-turn more now and then (its sides exchanged). */
        unsigned long long q = c2d_test_rand() % 4;
        double w = 2 * half_along, h = 2 * half_up;
        if (q % 2) {
            double t = w;
            w = h;
            h = t;
        }
        st = c2d_rect_new(centre.x, centre.y, w, h, theta + (double)q * 1.5707963267948966, &c->mover);
    }
    return st;
}

/* The deepest overlap of the mover with the floor's shapes (0 when apart or touching). */
static double floor_depth(const slide_case *c, const c2d_shape *mover)
{
    double deepest = 0.0;
    for (int i = 0; i < c->nfloor; i++) {
        c2d_contact ct;
        if (c2d_collide(mover, c->floor[i], &ct) != C2D_OK)
            return INFINITY;
        if (ct.count > 0 && ct.depth > deepest)
            deepest = ct.depth;
    }
    return deepest;
}

static double slide_worst_along, slide_worst_across, slide_worst_depth;

/* Runs one case: 1 when the move kept the part along the floor, removed the press and ended outside. */
static int slide_case_check(slide_case *c, long trial)
{
    c2d_static_set *set;
    c2d_move_result res;
    c2d_sweep_contact ct[4];
    c2d_status st = c2d_static_set_new((const c2d_shape *const *)c->floor, c->nfloor, NULL, &set);
    if (st != C2D_OK) {
        c2d_test_fail(__FILE__, __LINE__, "trial %ld: c2d_static_set_new failed with %d", trial, (int)st);
        return 0;
    }
    st = c2d_static_set_move(set, c->mover, c->d, NULL, &res, ct, 4);
    c2d_static_set_destroy(set);
    c2d_aabb box;
    c2d_shape_get_aabb(c->mover, &box);
    double mag = fmax(fmax(fabs(box.min.x), fabs(box.max.x)), fmax(fabs(box.min.y), fabs(box.max.y)));
    /* Rounding at the scene's coordinates: the scale, and where it stands. Every answer must be
     * right to 1e-13 of that (rounding, about 1e-16, with room for the steps of a move), and the
     * mover must end no deeper in the floor: the press is all taken, the part along all kept. */
    double unit = c->s + mag;
    double got_along = res.displacement.x * c->dir.x + res.displacement.y * c->dir.y;
    double got_across = res.displacement.x * c->up.x + res.displacement.y * c->up.y;
    double depth = INFINITY;
    c2d_shape *moved = NULL;
    if (st == C2D_OK && c2d_shape_clone(c->mover, &moved) == C2D_OK &&
        c2d_shape_move(moved, res.displacement) == C2D_OK)
        depth = floor_depth(c, moved);
    c2d_shape_destroy(moved);
    double e_along = fabs(got_along - c->along) / unit, e_across = fabs(got_across) / unit, e_depth = depth / unit;
    slide_worst_along = fmax(slide_worst_along, e_along);
    slide_worst_across = fmax(slide_worst_across, e_across);
    slide_worst_depth = fmax(slide_worst_depth, e_depth);
    if (st != C2D_OK || res.truncated || !(e_along <= 1e-13) || !(e_across <= 1e-13) || !(e_depth <= 1e-13)) {
        c2d_test_fail(__FILE__, __LINE__,
                      "trial %ld: status %d, along %.17g of %.17g, across %.3g, ends %.3g inside (scale %.3g)",
                      trial, (int)st, got_along, c->along, got_across, depth, c->s);
        slide_case_print(c);
        return 0;
    }
    return 1;
}

TEST(slide_property_pressing_into_any_floor_keeps_the_part_along_it)
{
    long n = c2d_test_iterations(40000);
    long per_kind[FLOOR_KINDS] = {0, 0, 0};
    slide_worst_along = slide_worst_across = slide_worst_depth = 0.0;
    for (long trial = 0; trial < n; trial++) {
        slide_case c;
        c2d_status st = slide_case_new(&c);
        if (st != C2D_OK)
            slide_case_free(&c);
        ENSURE_MSG(st == C2D_OK, "trial %ld: building the %s case failed with %d", trial, floor_names[c.kind], (int)st);
        per_kind[c.kind]++;
        int ok = slide_case_check(&c, trial);
        slide_case_free(&c);
        if (!ok)
            return;
    }
    printf("# %ld tiles, %ld chain, %ld concave; worst along %.3g, across %.3g, depth %.3g (of scale + place)\n",
           per_kind[0], per_kind[1], per_kind[2], slide_worst_along, slide_worst_across, slide_worst_depth);
}
