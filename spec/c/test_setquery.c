/* test_setquery.c - a static set's queries (c2d_static_set_query_aabb, _point, _shape, raycast,
 * raycast_all) and the world's disabled entries and velocities. The set's answers are stated as
 * properties: on random sets of every kind (tiles, rotated boxes, polygons, capsules, circles,
 * segments, chains, concave polygons), at scales from 1e-3 to 1e4, with members re-placed and
 * disabled, every query equals asking each enabled shape in turn with the public call (c2d_overlap,
 * c2d_contains_point, c2d_raycast), and the box query equals a world's over copies of the same shapes;
 * ray hits lie on the boundary of the shape they name. The world's disabled entries are never found by
 * a query, ray, pair, move or ball step, which all answer as a world holding only the enabled ones. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define NSHAPES 40
#define MAXHITS 64

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

static double uniform(double lo, double hi)
{
    return c2d_test_uniform(lo, hi);
}

/* A random convex or compound shape of kind k about c, of size about s. Each number is drawn in its
 * own statement (test.h). */
static c2d_status random_shape(int k, c2d_vec2 c, double s, c2d_shape **out)
{
    double a = uniform(-TU_PI, TU_PI);
    double w = uniform(0.3, 3) * s;
    double h = uniform(0.3, 3) * s;
    switch (k) {
    case 0:
        return c2d_rect_new(c.x, c.y, w, h, a, out);
    case 1: {
        c2d_vec2 p[6];
        for (int i = 0; i < 6; i++) {
            double r = uniform(0.3, 2) * s;
            double t = uniform(-TU_PI, TU_PI);
            p[i] = V(c.x + r * cos(t), c.y + r * sin(t));
        }
        return c2d_hull_new(p, 6, out);
    }
    case 2:
        return c2d_capsule_new(c, V(c.x + w * cos(a), c.y + w * sin(a)), 0.2 * h, out);
    case 3:
        return c2d_circle_new(c.x, c.y, 0.5 * w, out);
    case 4:
        return c2d_segment_new(c, V(c.x + w * cos(a), c.y + w * sin(a)), out);
    case 5: {
        c2d_vec2 p[5];
        p[0] = c;
        for (int i = 1; i < 5; i++) {
            double dx = uniform(0.5, 2) * s;
            double dy = uniform(-2, 2) * s;
            p[i] = V(p[i - 1].x + dx, p[i - 1].y + dy);
        }
        int flags = c2d_test_rand() % 2 ? C2D_CHAIN_ONE_SIDED : 0;
        return c2d_chain_new(p, 5, flags, out);
    }
    default: {
        /* An L, turned by a. */
        static const double lx[6] = {0, 2, 2, 1, 1, 0}, ly[6] = {0, 0, 1, 1, 2, 2};
        c2d_vec2 p[6];
        for (int i = 0; i < 6; i++) {
            c2d_vec2 q = tu_rot(V(lx[i] * w * 0.5, ly[i] * h * 0.5), a);
            p[i] = V(c.x + q.x, c.y + q.y);
        }
        return c2d_concave_new(p, 6, NULL, NULL, 0, out);
    }
    }
}
#define KINDS 7

/* A random set at scale s: a row of 8 touching tiles, then random shapes of every kind; some members
 * re-placed (they leave the grid), some disabled, some given user values. */
typedef struct scene {
    c2d_shape *shapes[NSHAPES];
    c2d_static_set *set;
    int n;
    double scale;
} scene;

static c2d_status make_scene(double s, scene *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->scale = s;
    c2d_status st;
    int n = 0;
    for (int i = 0; i < 8; i++)
        if ((st = c2d_rect_new((i + 0.5) * s, -0.5 * s, s, s, 0, &sc->shapes[n++])) != C2D_OK)
            return st;
    while (n < NSHAPES) {
        double x = uniform(-5, 25) * s;
        double y = uniform(-5, 25) * s;
        int k = (int)(c2d_test_rand() % KINDS);
        if ((st = random_shape(k, V(x, y), s, &sc->shapes[n])) != C2D_OK)
            return st;
        n++;
    }
    sc->n = n;
    if ((st = c2d_static_set_new((const c2d_shape *const *)sc->shapes, n, NULL, &sc->set)) != C2D_OK)
        return st;
    for (int j = 0; j < 6; j++) {
        int i = (int)(c2d_test_rand() % (unsigned long long)n);
        double x = uniform(-10, 30) * s;
        double y = uniform(-10, 30) * s;
        double a = uniform(-4, 4);
        if ((st = c2d_static_set_set_transform(sc->set, i, V(x, y), a)) != C2D_OK)
            return st;
    }
    for (int j = 0; j < 8; j++) {
        int i = (int)(c2d_test_rand() % (unsigned long long)n);
        if ((st = c2d_static_set_set_enabled(sc->set, i, 0)) != C2D_OK)
            return st;
    }
    for (int i = 0; i < n; i += 3)
        if ((st = c2d_static_set_set_user(sc->set, i, (uintptr_t)(1000 + i))) != C2D_OK)
            return st;
    return C2D_OK;
}

static void free_scene(scene *sc)
{
    c2d_static_set_destroy(sc->set);
    for (int i = 0; i < sc->n; i++)
        c2d_shape_destroy(sc->shapes[i]);
}

static const c2d_shape *member(const scene *sc, int i)
{
    const c2d_shape *s = NULL;
    c2d_static_set_get_shape(sc->set, i, &s);
    return s;
}

static int enabled(const scene *sc, int i)
{
    int on = 0;
    c2d_static_set_get_enabled(sc->set, i, &on);
    return on;
}

static uintptr_t user_of(const scene *sc, int i)
{
    uintptr_t u = 0;
    c2d_static_set_get_user(sc->set, i, &u);
    return u;
}

/* A point on the boundary of a random member: a vertex, or a point along an edge. */
static c2d_vec2 feature_point(const scene *sc, int on_edge)
{
    int i = (int)(c2d_test_rand() % (unsigned long long)sc->n);
    c2d_vec2 v[64];
    int count = 0;
    if (c2d_shape_get_vertices(member(sc, i), v, 64, &count) != C2D_OK || count == 0) {
        c2d_vec2 p = V(0, 0);
        c2d_shape_get_position(member(sc, i), &p);
        return p;
    }
    int k = (int)(c2d_test_rand() % (unsigned long long)count);
    if (!on_edge)
        return v[k];
    double f = uniform(0, 1);
    c2d_vec2 a = v[k], b = v[(k + 1) % count];
    return V(a.x + f * (b.x - a.x), a.y + f * (b.y - a.y));
}

/* Compares a set query's answer with the expected indices (and their user values). */
static int same_hits(const scene *sc, const c2d_set_hit *hits, int count, const int *want, int nwant)
{
    if (count != nwant)
        return 0;
    for (int k = 0; k < count; k++)
        if (hits[k].index != want[k] || hits[k].user != user_of(sc, want[k]))
            return 0;
    return 1;
}

static int same_ray(const c2d_ray_hit *a, const c2d_ray_hit *b)
{
    return a->hit == b->hit && a->t == b->t && tu_same_vec(a->point, b->point) && tu_same_vec(a->normal, b->normal);
}

/* The brute-force ray answers: every enabled member's c2d_raycast, sorted by t then index. */
typedef struct ray_ref {
    int index;
    c2d_ray_hit ray;
} ray_ref;

static int cmp_ray_ref(const void *pa, const void *pb)
{
    const ray_ref *a = (const ray_ref *)pa, *b = (const ray_ref *)pb;
    if (a->ray.t != b->ray.t)
        return a->ray.t < b->ray.t ? -1 : 1;
    return a->index - b->index;
}

static int brute_rays(const scene *sc, c2d_vec2 o, c2d_vec2 d, double max_t, ray_ref *out)
{
    int n = 0;
    for (int i = 0; i < sc->n; i++) {
        if (!enabled(sc, i))
            continue;
        c2d_ray_hit h;
        if (c2d_raycast(member(sc, i), o, d, max_t, &h) != C2D_OK || !h.hit || !(h.t < INFINITY))
            continue;
        out[n].index = i;
        out[n].ray = h;
        n++;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_ray_ref);
    return n;
}

static const double SCALES[] = {1e-3, 1, 37.5, 1e4};

TEST(setquery_point_and_shape_queries_equal_asking_every_enabled_shape)
{
    long trials = c2d_test_iterations(24);
    for (long trial = 0; trial < trials; trial++) {
        scene sc;
        ENSURE_OK(make_scene(SCALES[trial % 4], &sc));
        double s = sc.scale;
        c2d_set_hit hits[MAXHITS];
        int want[NSHAPES], count = -1;
        for (int q = 0; q < 60; q++) {
            c2d_vec2 p;
            if (q % 3 == 0) {
                double x = uniform(-8, 28) * s;
                double y = uniform(-8, 28) * s;
                p = V(x, y);
            } else {
                p = feature_point(&sc, q % 3 == 2);
            }
            int nwant = 0;
            for (int i = 0; i < sc.n; i++) {
                int in = 0;
                c2d_contains_point(member(&sc, i), p, &in);
                if (in && enabled(&sc, i))
                    want[nwant++] = i;
            }
            ENSURE_OK(c2d_static_set_query_point(sc.set, p, hits, MAXHITS, &count));
            ENSURE_MSG(same_hits(&sc, hits, count, want, nwant), "point (%.17g, %.17g), scale %g: %d found, %d expected",
                       p.x, p.y, s, count, nwant);
        }
        for (int q = 0; q < 30; q++) {
            double x = uniform(-8, 28) * s;
            double y = uniform(-8, 28) * s;
            int k = (int)(c2d_test_rand() % KINDS);
            c2d_shape *probe;
            ENSURE_OK(random_shape(k, V(x, y), s, &probe));
            int nwant = 0;
            for (int i = 0; i < sc.n; i++) {
                int hit = 0;
                c2d_overlap(probe, member(&sc, i), &hit);
                if (hit && enabled(&sc, i))
                    want[nwant++] = i;
            }
            c2d_status st = c2d_static_set_query_shape(sc.set, probe, hits, MAXHITS, &count);
            c2d_shape_destroy(probe);
            ENSURE(st == C2D_OK);
            ENSURE_MSG(same_hits(&sc, hits, count, want, nwant), "probe kind %d at (%g, %g), scale %g: %d found, %d expected",
                       k, x, y, s, count, nwant);
        }
        /* The set's own shapes as probes: each finds itself when enabled, and what touches it. */
        for (int j = 0; j < sc.n; j++) {
            int nwant = 0;
            for (int i = 0; i < sc.n; i++) {
                int hit = 0;
                c2d_overlap(member(&sc, j), member(&sc, i), &hit);
                if (hit && enabled(&sc, i))
                    want[nwant++] = i;
            }
            ENSURE_OK(c2d_static_set_query_shape(sc.set, member(&sc, j), hits, MAXHITS, &count));
            ENSURE(same_hits(&sc, hits, count, want, nwant));
        }
        free_scene(&sc);
    }
}

TEST(setquery_box_query_equals_a_world_over_the_same_shapes)
{
    long trials = c2d_test_iterations(24);
    for (long trial = 0; trial < trials; trial++) {
        scene sc;
        ENSURE_OK(make_scene(SCALES[trial % 4], &sc));
        double s = sc.scale;
        c2d_world *w;
        ENSURE_OK(c2d_world_new(&w));
        c2d_shape *copies[NSHAPES];
        for (int i = 0; i < sc.n; i++) {
            c2d_world_id id;
            ENSURE_OK(c2d_shape_clone(member(&sc, i), &copies[i]));
            ENSURE_OK(c2d_world_add(w, copies[i], (uintptr_t)i, &id));
            ENSURE_OK(c2d_world_set_enabled(w, id, enabled(&sc, i)));
        }
        c2d_set_hit hits[MAXHITS];
        c2d_world_hit whits[MAXHITS];
        int want[NSHAPES];
        for (int q = 0; q < 80; q++) {
            c2d_vec2 a;
            if (q % 2) {
                a = feature_point(&sc, q % 4 == 1);
            } else {
                double x = uniform(-8, 28) * s;
                double y = uniform(-8, 28) * s;
                a = V(x, y);
            }
            double bw = uniform(0, 6) * s;
            double bh = uniform(0, 6) * s;
            if (q % 5 == 0)
                bw = 0; /* a segment, or a point with the next */
            if (q % 10 == 0)
                bh = 0;
            c2d_aabb box;
            box.min = a;
            box.max = V(a.x + bw, a.y + bh);
            int count = -1, wcount = -1;
            ENSURE_OK(c2d_static_set_query_aabb(sc.set, box, hits, MAXHITS, &count));
            ENSURE_OK(c2d_world_query_aabb(w, box, NULL, whits, MAXHITS, &wcount));
            for (int k = 0; k < wcount; k++)
                want[k] = (int)whits[k].user;
            ENSURE_MSG(same_hits(&sc, hits, count, want, wcount), "box (%g, %g)-(%g, %g), scale %g: %d found, world %d",
                       box.min.x, box.min.y, box.max.x, box.max.y, s, count, wcount);
            for (int k = 0; k < count; k++)
                ENSURE(enabled(&sc, hits[k].index)); /* the world's copies of disabled ones are disabled too */
        }
        c2d_world_destroy(w);
        for (int i = 0; i < sc.n; i++)
            c2d_shape_destroy(copies[i]);
        free_scene(&sc);
    }
}

/* Checks the set's ray answers for one ray against brute force (c2d_test_failed says how it went). */
static void check_ray(const scene *sc, c2d_vec2 o, c2d_vec2 d, double max_t)
{
    ray_ref want[NSHAPES];
    c2d_set_ray_hit all[MAXHITS], first;
    int nwant = brute_rays(sc, o, d, max_t, want), count = -1;
    ENSURE_MSG(c2d_static_set_raycast(sc->set, o, d, max_t, &first) == C2D_OK, "raycast failed");
    ENSURE_MSG(c2d_static_set_raycast_all(sc->set, o, d, max_t, all, MAXHITS, &count) == C2D_OK, "raycast_all failed");
    if (nwant == 0) {
        ENSURE_MSG(!first.ray.hit && first.index == -1 && first.user == 0 && first.ray.t == 0, "a hit where none is");
    } else {
        ENSURE_MSG(first.index == want[0].index && first.user == user_of(sc, want[0].index) &&
                       same_ray(&first.ray, &want[0].ray),
                   "ray (%.17g, %.17g) + t (%.17g, %.17g): first hit %d at %.17g, expected %d at %.17g", o.x, o.y,
                   d.x, d.y, first.index, first.ray.t, want[0].index, want[0].ray.t);
        /* On the boundary of the shape it names, within rounding of the scene's coordinates. */
        double dist = 0;
        c2d_closest_point(member(sc, first.index), first.ray.point, NULL, &dist);
        double size = fabs(o.x) + fabs(o.y) + fabs(first.ray.point.x) + fabs(first.ray.point.y) + sc->scale;
        ENSURE_MSG(first.ray.t == 0 || fabs(dist) <= 1e-9 * size, "hit %.3g off the boundary", dist);
    }
    ENSURE_MSG(count == nwant, "raycast_all found %d, expected %d", count, nwant);
    for (int k = 0; k < count; k++) {
        ENSURE(all[k].index == want[k].index && all[k].user == user_of(sc, want[k].index));
        ENSURE(same_ray(&all[k].ray, &want[k].ray));
        ENSURE(k == 0 || all[k - 1].ray.t < all[k].ray.t ||
               (all[k - 1].ray.t == all[k].ray.t && all[k - 1].index < all[k].index));
    }
}

TEST(setquery_rays_equal_casting_at_every_enabled_shape)
{
    long trials = c2d_test_iterations(24);
    for (long trial = 0; trial < trials; trial++) {
        scene sc;
        ENSURE_OK(make_scene(SCALES[trial % 4], &sc));
        double s = sc.scale;
        for (int q = 0; q < 80; q++) {
            double ox = uniform(-15, 35) * s;
            double oy = uniform(-15, 35) * s;
            c2d_vec2 o = V(ox, oy), d;
            if (q % 4 == 0) {
                /* At a vertex or an edge point of a member: through it exactly, or as near as rounds. */
                c2d_vec2 at = feature_point(&sc, q % 8 == 0);
                d = V(at.x - o.x, at.y - o.y);
                if (d.x == 0 && d.y == 0)
                    d = V(1, 0);
            } else if (q % 4 == 1) {
                double sign = c2d_test_rand() % 2 ? 1.0 : -1.0;
                d = c2d_test_rand() % 2 ? V(sign, 0) : V(0, sign); /* along the grid's rows or columns */
            } else {
                double t = uniform(-TU_PI, TU_PI);
                d = V(cos(t), sin(t));
            }
            double max_t = INFINITY;
            if (q % 3 == 0)
                max_t = uniform(0, 1.2); /* a segment query: d is the whole way at q % 4 == 0 */
            if (q % 4 != 0 && q % 3 == 0)
                max_t *= 30 * s;
            check_ray(&sc, o, d, max_t);
            if (c2d_test_failed()) {
                free_scene(&sc);
                return;
            }
        }
        free_scene(&sc);
    }
}

TEST(setquery_ray_along_a_row_of_tiles_hits_the_nearest_and_lists_them_in_order)
{
    c2d_shape *tiles[5];
    for (int i = 0; i < 5; i++)
        ENSURE_OK(c2d_rect_new(i + 0.5, 0.5, 1, 1, 0, &tiles[i]));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)tiles, 5, NULL, &set));
    ENSURE_OK(c2d_static_set_set_user(set, 3, 77));
    /* Through the top corners of every tile: t ties are broken by index. */
    c2d_set_ray_hit hits[8], first;
    int count = 0;
    ENSURE_OK(c2d_static_set_raycast(set, V(-1, 1), V(1, 0), INFINITY, &first));
    ENSURE(first.index == 0 && first.ray.t == 1 && first.ray.point.x == 0 && first.ray.point.y == 1);
    ENSURE_OK(c2d_static_set_raycast_all(set, V(-1, 0.5), V(1, 0), 4.5, hits, 8, &count)); /* tile 4 is at t = 5 */
    ENSURE(count == 4);
    for (int k = 0; k < count; k++)
        ENSURE(hits[k].index == k && hits[k].ray.t == 1 + k && hits[k].user == (k == 3 ? 77u : 0u));
    /* Disabled: never found; enabled again: found again. */
    ENSURE_OK(c2d_static_set_set_enabled(set, 0, 0));
    ENSURE_OK(c2d_static_set_raycast(set, V(-1, 0.5), V(1, 0), INFINITY, &first));
    ENSURE(first.index == 1 && first.ray.t == 2);
    c2d_set_hit ph[8];
    ENSURE_OK(c2d_static_set_query_point(set, V(0.5, 0.5), ph, 8, &count));
    ENSURE(count == 0);
    ENSURE_OK(c2d_static_set_set_enabled(set, 0, 1));
    ENSURE_OK(c2d_static_set_query_point(set, V(1, 1), ph, 8, &count)); /* a shared corner */
    ENSURE(count == 2 && ph[0].index == 0 && ph[1].index == 1);
    /* Re-placed far outside the set as built: found there, not where it was. */
    ENSURE_OK(c2d_static_set_set_transform(set, 2, V(100, 100), 0.5));
    ENSURE_OK(c2d_static_set_query_point(set, V(100, 100), ph, 8, &count));
    ENSURE(count == 1 && ph[0].index == 2);
    ENSURE_OK(c2d_static_set_query_point(set, V(2.5, 0.5), ph, 8, &count));
    ENSURE(count == 0);
    ENSURE_OK(c2d_static_set_raycast(set, V(100, 0), V(0, 1), INFINITY, &first));
    ENSURE(first.index == 2 && first.ray.hit);
    c2d_static_set_destroy(set);
    for (int i = 0; i < 5; i++)
        c2d_shape_destroy(tiles[i]);
}

TEST(setquery_a_chain_and_a_concave_polygon_are_one_index_each)
{
    c2d_vec2 pts[4] = {{0, 0}, {2, 0}, {2, 2}, {4, 2}};
    c2d_vec2 ell[6] = {{10, 0}, {14, 0}, {14, 2}, {12, 2}, {12, 4}, {10, 4}};
    c2d_shape *s[2];
    ENSURE_OK(c2d_chain_new(pts, 4, 0, &s[0]));
    ENSURE_OK(c2d_concave_new(ell, 6, NULL, NULL, 0, &s[1]));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)s, 2, NULL, &set));
    c2d_set_hit hits[8];
    int count = 0;
    c2d_aabb box = {{-1, -1}, {20, 5}};
    ENSURE_OK(c2d_static_set_query_aabb(set, box, hits, 8, &count));
    ENSURE(count == 2 && hits[0].index == 0 && hits[1].index == 1);
    /* The concave polygon's notch is outside it. */
    ENSURE_OK(c2d_static_set_query_point(set, V(13, 3), hits, 8, &count));
    ENSURE(count == 0);
    ENSURE_OK(c2d_static_set_query_point(set, V(11, 3), hits, 8, &count));
    ENSURE(count == 1 && hits[0].index == 1);
    /* A chain contains the points on it; its joint is one index. */
    ENSURE_OK(c2d_static_set_query_point(set, V(2, 0), hits, 8, &count));
    ENSURE(count == 1 && hits[0].index == 0);
    c2d_set_ray_hit rh[8];
    ENSURE_OK(c2d_static_set_raycast_all(set, V(-1, 1), V(1, 0), INFINITY, rh, 8, &count));
    ENSURE(count == 2 && rh[0].index == 0 && rh[0].ray.t == 3 && rh[1].index == 1 && rh[1].ray.t == 11);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(s[0]);
    c2d_shape_destroy(s[1]);
}

TEST(setquery_capacity_count_only_and_bad_input_change_nothing)
{
    c2d_shape *tiles[4];
    for (int i = 0; i < 4; i++)
        ENSURE_OK(c2d_rect_new(i + 0.5, 0.5, 1, 1, 0, &tiles[i]));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)tiles, 4, NULL, &set));
    c2d_set_hit hits[4], sentinel;
    memset(&sentinel, 0xAB, sizeof sentinel);
    for (int k = 0; k < 4; k++)
        hits[k] = sentinel;
    int count = -7;
    c2d_aabb all = {{0, 0}, {4, 1}};
    /* Too small: the count, nothing written. */
    ENSURE(c2d_static_set_query_aabb(set, all, hits, 2, &count) == C2D_ERR_CAPACITY && count == 4);
    ENSURE(memcmp(&hits[0], &sentinel, sizeof sentinel) == 0);
    /* NULL and 0: the count only. */
    count = -7;
    ENSURE_OK(c2d_static_set_query_aabb(set, all, NULL, 0, &count));
    ENSURE(count == 4);
    c2d_set_ray_hit rh[4], rsent, one;
    memset(&rsent, 0xCD, sizeof rsent);
    rh[0] = rsent;
    one = rsent;
    count = -7;
    ENSURE(c2d_static_set_raycast_all(set, V(-1, 0.5), V(1, 0), INFINITY, rh, 1, &count) == C2D_ERR_CAPACITY);
    ENSURE(count == 4 && memcmp(&rh[0], &rsent, sizeof rsent) == 0);
    ENSURE_OK(c2d_static_set_raycast_all(set, V(-1, 0.5), V(1, 0), INFINITY, NULL, 0, &count));
    ENSURE(count == 4);
    /* Bad input: a status, and neither the answer nor the count is touched. */
    double nan = NAN;
    c2d_aabb bad_nan = {{nan, 0}, {1, 1}}, bad_order = {{1, 0}, {0, 1}}, bad_far = {{0, 0}, {2e15, 1}};
    count = -7;
    ENSURE(c2d_static_set_query_aabb(NULL, all, hits, 4, &count) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_query_aabb(set, all, hits, 4, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_query_aabb(set, all, NULL, 4, &count) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_query_aabb(set, all, hits, -1, &count) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_query_aabb(set, bad_nan, hits, 4, &count) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_query_aabb(set, bad_order, hits, 4, &count) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_query_aabb(set, bad_far, hits, 4, &count) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_query_point(set, V(nan, 0), hits, 4, &count) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_query_point(set, V(INFINITY, 0), hits, 4, &count) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_query_point(NULL, V(0, 0), hits, 4, &count) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_query_shape(set, NULL, hits, 4, &count) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_query_shape(set, tiles[0], hits, -3, &count) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_raycast(set, V(0, 0), V(0, 0), 1, &one) == C2D_ERR_DEGENERATE);
    ENSURE(c2d_static_set_raycast(set, V(0, 0), V(1, 0), nan, &one) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_raycast(set, V(0, 0), V(1, 0), -1, &one) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_raycast(set, V(nan, 0), V(1, 0), 1, &one) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_raycast(set, V(0, 0), V(1, 0), 1, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_raycast(NULL, V(0, 0), V(1, 0), 1, &one) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_raycast_all(set, V(0, 0), V(0, 0), 1, rh, 4, &count) == C2D_ERR_DEGENERATE);
    ENSURE(c2d_static_set_raycast_all(set, V(0, 0), V(1, 0), 1, rh, -1, &count) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_raycast_all(set, V(0, 0), V(1, 0), 1, NULL, 2, &count) == C2D_ERR_NULL);
    ENSURE(count == -7);
    ENSURE(memcmp(&hits[0], &sentinel, sizeof sentinel) == 0 && memcmp(&hits[3], &sentinel, sizeof sentinel) == 0);
    ENSURE(memcmp(&rh[0], &rsent, sizeof rsent) == 0 && memcmp(&one, &rsent, sizeof rsent) == 0);
    /* An empty set finds nothing; a miss is index -1. */
    c2d_static_set *empty;
    ENSURE_OK(c2d_static_set_new(NULL, 0, NULL, &empty));
    ENSURE_OK(c2d_static_set_query_point(empty, V(0, 0), hits, 4, &count));
    ENSURE(count == 0);
    ENSURE_OK(c2d_static_set_raycast(empty, V(0, 0), V(1, 0), INFINITY, &one));
    ENSURE(one.index == -1 && !one.ray.hit);
    c2d_static_set_destroy(empty);
    c2d_static_set_destroy(set);
    for (int i = 0; i < 4; i++)
        c2d_shape_destroy(tiles[i]);
}

/* ---- the world's disabled entries --------------------------------------------------------------- */

/* Two worlds over the same random shapes, user value i for shape i: `all` holds every shape with some
 * entries disabled, `on` only the shapes enabled in `all`. Every answer of `all` must be `on`'s. */
typedef struct two_worlds {
    c2d_shape *shapes[NSHAPES];
    c2d_world *all, *on;
    c2d_world_id ids[NSHAPES];
    int off[NSHAPES];
    int n;
} two_worlds;

static c2d_status make_worlds(double s, two_worlds *t)
{
    memset(t, 0, sizeof *t);
    c2d_status st;
    if ((st = c2d_world_new(&t->all)) != C2D_OK || (st = c2d_world_new(&t->on)) != C2D_OK)
        return st;
    for (int i = 0; i < NSHAPES; i++) {
        double x = uniform(-5, 25) * s;
        double y = uniform(-5, 25) * s;
        int k = (int)(c2d_test_rand() % KINDS);
        if ((st = random_shape(k, V(x, y), s, &t->shapes[i])) != C2D_OK)
            return st;
        t->n++;
        if ((st = c2d_world_add(t->all, t->shapes[i], (uintptr_t)i, &t->ids[i])) != C2D_OK)
            return st;
        t->off[i] = c2d_test_rand() % 4 == 0;
        if (t->off[i]) {
            if ((st = c2d_world_set_enabled(t->all, t->ids[i], 0)) != C2D_OK)
                return st;
        } else {
            c2d_world_id id;
            if ((st = c2d_world_add(t->on, t->shapes[i], (uintptr_t)i, &id)) != C2D_OK)
                return st;
        }
    }
    return C2D_OK;
}

static void free_worlds(two_worlds *t)
{
    c2d_world_destroy(t->all);
    c2d_world_destroy(t->on);
    for (int i = 0; i < t->n; i++)
        c2d_shape_destroy(t->shapes[i]);
}

static int same_world_hits(const c2d_world_hit *a, int na, const c2d_world_hit *b, int nb)
{
    if (na != nb)
        return 0;
    for (int k = 0; k < na; k++)
        if (a[k].user != b[k].user)
            return 0;
    return 1;
}

TEST(setquery_world_disabled_entries_are_never_found_by_queries_rays_or_pairs)
{
    long trials = c2d_test_iterations(12);
    for (long trial = 0; trial < trials; trial++) {
        two_worlds t;
        double s = SCALES[trial % 4];
        ENSURE_OK(make_worlds(s, &t));
        c2d_world_hit a[MAXHITS], b[MAXHITS];
        c2d_world_ray_hit ra[MAXHITS], rb[MAXHITS], fa, fb;
        int na = -1, nb = -1;
        for (int q = 0; q < 40; q++) {
            double x = uniform(-8, 28) * s;
            double y = uniform(-8, 28) * s;
            double bw = uniform(0, 8) * s;
            double bh = uniform(0, 8) * s;
            c2d_aabb box = {{x, y}, {x + bw, y + bh}};
            ENSURE_OK(c2d_world_query_aabb(t.all, box, NULL, a, MAXHITS, &na));
            ENSURE_OK(c2d_world_query_aabb(t.on, box, NULL, b, MAXHITS, &nb));
            ENSURE(same_world_hits(a, na, b, nb));
            ENSURE_OK(c2d_world_query_point(t.all, V(x, y), NULL, a, MAXHITS, &na));
            ENSURE_OK(c2d_world_query_point(t.on, V(x, y), NULL, b, MAXHITS, &nb));
            ENSURE(same_world_hits(a, na, b, nb));
            int j = (int)(c2d_test_rand() % NSHAPES);
            ENSURE_OK(c2d_world_query_shape(t.all, t.shapes[j], NULL, a, MAXHITS, &na));
            ENSURE_OK(c2d_world_query_shape(t.on, t.shapes[j], NULL, b, MAXHITS, &nb));
            ENSURE(same_world_hits(a, na, b, nb));
            for (int k = 0; k < na; k++)
                ENSURE(!t.off[a[k].user]);
            double ang = uniform(-TU_PI, TU_PI);
            c2d_vec2 d = V(cos(ang), sin(ang));
            ENSURE_OK(c2d_world_raycast(t.all, V(x, y), d, INFINITY, NULL, &fa));
            ENSURE_OK(c2d_world_raycast(t.on, V(x, y), d, INFINITY, NULL, &fb));
            ENSURE(fa.user == fb.user && same_ray(&fa.ray, &fb.ray));
            ENSURE(!fa.ray.hit || !t.off[fa.user]);
            ENSURE_OK(c2d_world_raycast_all(t.all, V(x, y), d, INFINITY, NULL, ra, MAXHITS, &na));
            ENSURE_OK(c2d_world_raycast_all(t.on, V(x, y), d, INFINITY, NULL, rb, MAXHITS, &nb));
            ENSURE(na == nb);
            for (int k = 0; k < na; k++)
                ENSURE(ra[k].user == rb[k].user && same_ray(&ra[k].ray, &rb[k].ray));
        }
        c2d_world_pair pa[512], pb[512];
        ENSURE_OK(c2d_world_pairs(t.all, pa, NULL, 512, &na));
        ENSURE_OK(c2d_world_pairs(t.on, pb, NULL, 512, &nb));
        ENSURE(na == nb);
        for (int k = 0; k < na; k++)
            ENSURE(pa[k].user_a == pb[k].user_a && pa[k].user_b == pb[k].user_b && !t.off[pa[k].user_a] &&
                   !t.off[pa[k].user_b]);
        /* Enabled again: every entry answers, as in a world that never disabled one. */
        int total = 0;
        for (int i = 0; i < t.n; i++) {
            int on = -1;
            ENSURE_OK(c2d_world_get_enabled(t.all, t.ids[i], &on));
            ENSURE(on == !t.off[i]);
            ENSURE_OK(c2d_world_set_enabled(t.all, t.ids[i], 1));
        }
        c2d_aabb everything = {{-1e6, -1e6}, {1e6, 1e6}};
        ENSURE_OK(c2d_world_query_aabb(t.all, everything, NULL, NULL, 0, &total));
        ENSURE(total == t.n);
        free_worlds(&t);
    }
}

TEST(setquery_world_disabled_entries_do_not_stop_moves_or_balls)
{
    long trials = c2d_test_iterations(12);
    for (long trial = 0; trial < trials; trial++) {
        two_worlds t;
        double s = SCALES[trial % 4];
        ENSURE_OK(make_worlds(s, &t));
        for (int q = 0; q < 30; q++) {
            double x = uniform(-8, 28) * s;
            double y = uniform(-8, 28) * s;
            double dx = uniform(-10, 10) * s;
            double dy = uniform(-10, 10) * s;
            c2d_shape *mover;
            ENSURE_OK(c2d_rect_new(x, y, 0.7 * s, 0.9 * s, 0, &mover));
            c2d_move_result ma, mb;
            c2d_world_contact ca[16], cb[16];
            c2d_status sa = c2d_world_move(t.all, mover, V(dx, dy), NULL, NULL, NULL, NULL, &ma, ca, 16);
            c2d_status sb = c2d_world_move(t.on, mover, V(dx, dy), NULL, NULL, NULL, NULL, &mb, cb, 16);
            c2d_shape_destroy(mover);
            ENSURE(sa == sb);
            if (sa != C2D_OK)
                continue;
            ENSURE(tu_same_vec(ma.displacement, mb.displacement) && ma.count == mb.count);
            for (int k = 0; k < ma.count && k < 16; k++)
                ENSURE(ca[k].user == cb[k].user && !t.off[ca[k].user] && ca[k].contact.t == cb[k].contact.t);
            c2d_ball ba, bb;
            ba.position = V(x, y);
            ba.velocity = V(dx, dy);
            ba.radius = 0.4 * s;
            bb = ba;
            sa = c2d_world_step_ball(t.all, &ba, 1, NULL, NULL, NULL, NULL, &ma, ca, 16);
            sb = c2d_world_step_ball(t.on, &bb, 1, NULL, NULL, NULL, NULL, &mb, cb, 16);
            ENSURE(sa == sb);
            ENSURE(tu_same_vec(ba.position, bb.position) && tu_same_vec(ba.velocity, bb.velocity));
            ENSURE(ma.count == mb.count);
            for (int k = 0; k < ma.count && k < 16; k++)
                ENSURE(ca[k].user == cb[k].user && !t.off[ca[k].user]);
        }
        free_worlds(&t);
    }
}

TEST(setquery_world_disabled_entry_in_motion_is_not_swept)
{
    /* A bar swinging into a ball at rest: found while enabled, ignored while disabled. */
    c2d_world *w;
    ENSURE_OK(c2d_world_new(&w));
    c2d_shape *bar;
    ENSURE_OK(c2d_rect_new(55, 0, 110, 18, 0, &bar));
    c2d_world_id id;
    ENSURE_OK(c2d_world_add(w, bar, 1, &id));
    c2d_motion m = tu_motion(0, 0, 30, -55, 0);
    ENSURE_OK(c2d_world_set_motion(w, id, &m));
    c2d_ball ball = {{70, 20}, {0, 0}, 8};
    c2d_move_result r;
    ENSURE_OK(c2d_world_step_ball(w, &ball, 1.0 / 60, NULL, NULL, NULL, NULL, &r, NULL, 0));
    ENSURE(r.count >= 1);
    c2d_ball still = {{70, 20}, {0, 0}, 8};
    ENSURE_OK(c2d_world_set_enabled(w, id, 0));
    ENSURE_OK(c2d_world_step_ball(w, &still, 1.0 / 60, NULL, NULL, NULL, NULL, &r, NULL, 0));
    ENSURE(r.count == 0 && still.position.x == 70 && still.position.y == 20);
    c2d_world_destroy(w);
    c2d_shape_destroy(bar);
}

TEST(setquery_world_velocity_is_motion_with_the_turn_kept)
{
    c2d_world *w;
    ENSURE_OK(c2d_world_new(&w));
    c2d_shape *door;
    ENSURE_OK(c2d_rect_new(0, 0, 2, 10, 0, &door));
    c2d_world_id id;
    ENSURE_OK(c2d_world_add(w, door, 0, &id));
    c2d_vec2 v = V(9, 9);
    ENSURE_OK(c2d_world_get_velocity(w, id, &v));
    ENSURE(v.x == 0 && v.y == 0);
    c2d_motion m = tu_motion(1, 2, 3, 0, -5), got;
    ENSURE_OK(c2d_world_set_motion(w, id, &m));
    ENSURE_OK(c2d_world_set_velocity(w, id, V(-4, 0.5)));
    ENSURE_OK(c2d_world_get_motion(w, id, &got));
    ENSURE(got.velocity.x == -4 && got.velocity.y == 0.5 && got.angular_velocity == 3 && got.pivot.y == -5);
    ENSURE_OK(c2d_world_get_velocity(w, id, &v));
    ENSURE(v.x == -4 && v.y == 0.5);
    /* Bad input changes nothing. */
    ENSURE(c2d_world_set_velocity(w, id, V(NAN, 0)) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_set_velocity(w, id, V(2e15, 0)) == C2D_ERR_RANGE);
    ENSURE(c2d_world_set_velocity(NULL, id, V(1, 0)) == C2D_ERR_NULL);
    ENSURE(c2d_world_set_velocity(w, id + 1, V(1, 0)) == C2D_ERR_RANGE);
    ENSURE(c2d_world_get_velocity(w, id, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_get_velocity(w, 0, &v) == C2D_ERR_RANGE);
    ENSURE_OK(c2d_world_get_motion(w, id, &got));
    ENSURE(got.velocity.x == -4 && got.velocity.y == 0.5 && got.angular_velocity == 3);
    int on = -1;
    ENSURE(c2d_world_set_enabled(NULL, id, 0) == C2D_ERR_NULL);
    ENSURE(c2d_world_set_enabled(w, id + 1, 0) == C2D_ERR_RANGE);
    ENSURE(c2d_world_get_enabled(w, id, NULL) == C2D_ERR_NULL);
    ENSURE_OK(c2d_world_get_enabled(w, id, &on));
    ENSURE(on == 1);
    /* A removed entry's slot, added again, starts enabled. */
    ENSURE_OK(c2d_world_set_enabled(w, id, 0));
    ENSURE_OK(c2d_world_remove(w, id));
    ENSURE(c2d_world_get_enabled(w, id, &on) == C2D_ERR_RANGE);
    ENSURE_OK(c2d_world_add(w, door, 0, &id));
    ENSURE_OK(c2d_world_get_enabled(w, id, &on));
    ENSURE(on == 1);
    c2d_world_destroy(w);
    c2d_shape_destroy(door);
}
