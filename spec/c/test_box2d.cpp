/* test_box2d.cpp - a cross-check of polygon overlap and contacts against Box2D 2.4.1 (Debian's
 * libbox2d), an independent and widely used implementation, on random convex polygon pairs.
 *
 * Box2D differs on purpose in two ways, and the comparison allows for both:
 *  - its polygons carry a skin of b2_polygonRadius = 2 * b2_linearSlop = 0.01, so two polygons whose
 *    cores are less than 0.02 apart already "overlap" there: pairs within that band of touching are
 *    skipped, and its separations are turned back into core depths by adding the two skins;
 *  - it works in float and prefers A's face over B's when they are within 0.1 * b2_linearSlop, so
 *    normals are compared only where the best separating axis wins by a clear margin.
 */
#include <box2d/box2d.h>

#include "test.h"
#include "testutil.h"

/* Core distances in this band around touching are answered differently by design (Box2D's skin). */
#define SKIN_BAND_LO (-0.005)
#define SKIN_BAND_HI (2 * b2_polygonRadius + 0.005)
/* Float coordinates of size ~5 carry ~5e-7 rounding; a few operations later 1e-4 is safely above
 * Box2D's error and far below any real disagreement about a contact. */
#define FLOAT_TOL 1e-4

struct sat_axes {
    double best;   /* greatest separation over all face normals of A and B (cores) */
    c2d_vec2 best_n;
    double second; /* greatest separation of any other face (nearly parallel faces of A and B give
                    * nearly the same normal, and then either is a fair answer) */
};

/* Box2D's b2FindMaxSeparation for both polygons, in double: for each face normal n of one polygon,
 * how far the other lies beyond that face. For overlapping polygons minus the best one is the depth.
 * Normals are expressed as "from A to B". */
static sat_axes find_axes(const tu_geom *a, const tu_geom *b)
{
    sat_axes r;
    r.best = -INFINITY;
    r.second = -INFINITY;
    r.best_n = tu_v(0, 0);
    double seps[2 * TU_MAXV] = {0};
    c2d_vec2 normals[2 * TU_MAXV] = {};
    int m = 0;
    for (int k = 0; k < 2; k++) {
        const tu_geom *p = k == 0 ? a : b, *q = k == 0 ? b : a;
        for (int i = 0; i < p->n; i++) {
            c2d_vec2 e = tu_sub(p->v[(i + 1) % p->n], p->v[i]);
            double l = tu_len(e);
            c2d_vec2 n = tu_v(e.y / l, -e.x / l);
            double s = INFINITY;
            for (int j = 0; j < q->n; j++)
                s = fmin(s, tu_dot(tu_sub(q->v[j], p->v[i]), n));
            seps[m] = s;
            normals[m] = k == 0 ? n : tu_scale(n, -1);
            m++;
        }
    }
    int best = 0;
    for (int i = 0; i < m; i++)
        if (seps[i] > seps[best])
            best = i;
    r.best = seps[best];
    r.best_n = normals[best];
    for (int i = 0; i < m; i++)
        if (i != best && seps[i] > r.second)
            r.second = seps[i];
    return r;
}

/* A Box2D polygon for the geometry, placed by a transform at its first vertex so that the float
 * vertices are small offsets (as Box2D users place bodies). */
static void to_box2d(const tu_geom *g, b2PolygonShape *shape, b2Transform *xf)
{
    b2Vec2 pts[b2_maxPolygonVertices];
    for (int i = 0; i < g->n; i++)
        pts[i].Set((float)(g->v[i].x - g->v[0].x), (float)(g->v[i].y - g->v[0].y));
    shape->Set(pts, g->n);
    xf->Set(b2Vec2((float)g->v[0].x, (float)g->v[0].y), 0.0f);
}

TEST(box2d_random_polygon_pairs_agree_on_overlap_normal_and_depth)
{
    long iters = c2d_test_iterations(100000);
    long compared_overlap = 0, compared_contact = 0;
    for (long it = 0; it < iters; it++) {
        tu_body a, b;
        ENSURE_OK(tu_random_body(TU_POLYGON, tu_v(0, 0), 2.0, &a));
        if (tu_random_body(TU_POLYGON, tu_v(0, 0), 2.0, &b) != C2D_OK) {
            tu_body_destroy(&a);
            ENSURE_MSG(0, "polygon_new failed");
        }
        double sd = tu_signed_distance(&a.g, &b.g);
        int o = -1;
        c2d_contact c;
        c2d_status st1 = c2d_overlap(a.s, b.s, &o), st2 = c2d_collide(a.s, b.s, &c);
        tu_body_destroy(&a);
        tu_body_destroy(&b);
        ENSURE(st1 == C2D_OK && st2 == C2D_OK);
        if (sd > SKIN_BAND_LO && sd < SKIN_BAND_HI)
            continue;

        b2PolygonShape pa, pb;
        b2Transform xa, xb;
        to_box2d(&a.g, &pa, &xa);
        to_box2d(&b.g, &pb, &xb);
        bool b2_overlap = b2TestOverlap(&pa, 0, &pb, 0, xa, xb);
        ENSURE_MSG((o == 1) == b2_overlap, "pair %ld: c2d overlap %d, Box2D %d, core distance %.17g", it, o,
                   (int)b2_overlap, sd);
        compared_overlap++;

        b2Manifold man;
        b2CollidePolygons(&man, &pa, xa, &pb, xb);
        sat_axes ax = find_axes(&a.g, &b.g);
        /* b2CollidePolygons keeps a manifold while the best face separation is within its two skins,
         * even when corners are farther apart than that: no verdict to compare in that band. */
        if (ax.best > SKIN_BAND_LO && ax.best < SKIN_BAND_HI)
            continue;
        ENSURE_MSG((c.count > 0) == (man.pointCount > 0), "pair %ld: c2d count %d, Box2D %d, core distance %.17g",
                   it, c.count, (int)man.pointCount, sd);
        if (c.count == 0)
            continue;
        b2WorldManifold wm;
        wm.Initialize(&man, xa, pa.m_radius, xb, pb.m_radius);
        /* Box2D's deepest point, back from skin-to-skin to core separation. */
        double min_sep = INFINITY;
        for (int i = 0; i < man.pointCount; i++)
            min_sep = fmin(min_sep, (double)wm.separations[i]);
        double b2_depth = -(min_sep + pa.m_radius + pb.m_radius);
        /* Only where one face clearly wins is the normal (and Box2D's clipped depth) unambiguous: Box2D
         * keeps A's face unless B's is better by 0.0005, and nearly parallel faces differ slightly. */
        if (ax.best - ax.second < 0.01)
            continue;
        ENSURE_MSG(fabs(c.normal.x - wm.normal.x) <= FLOAT_TOL && fabs(c.normal.y - wm.normal.y) <= FLOAT_TOL,
                   "pair %ld: c2d normal (%.9g, %.9g), Box2D (%.9g, %.9g)", it, c.normal.x, c.normal.y,
                   (double)wm.normal.x, (double)wm.normal.y);
        ENSURE_MSG(fabs(c.depth - b2_depth) <= FLOAT_TOL, "pair %ld: c2d depth %.9g, Box2D %.9g", it, c.depth,
                   b2_depth);
        compared_contact++;
    }
    printf("# box2d: %ld pairs, %ld overlap verdicts and %ld contacts compared\n", iters, compared_overlap,
           compared_contact);
    /* Make sure the comparison was not vacuous. */
    ENSURE_MSG(compared_overlap > iters / 2, "only %ld of %ld pairs compared", compared_overlap, iters);
    ENSURE_MSG(compared_contact > iters / 10, "only %ld contacts compared", compared_contact);
}
