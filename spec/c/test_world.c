/* test_world.c - the world against brute force. A model keeps every entry the test has added (shape,
 * id, user value, bits); after thousands of random moves, turns, adds, removes and bit changes, every
 * query and the pair list must equal, element for element and in the promised order, what asking each
 * entry (or each pair of entries) directly gives. Then the promises that brute force cannot show:
 * order independent of insertion order, callbacks that change the world mid-query, capacities, contacts.
 */
#include "test.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define MAX_BODIES 1400

typedef struct model {
    c2d_world *w;
    tu_body b[MAX_BODIES];
    c2d_world_id id[MAX_BODIES];
    uintptr_t user[MAX_BODIES];
    unsigned cat[MAX_BODIES], mask[MAX_BODIES];
    int alive[MAX_BODIES];
    int n; /* bodies ever made (alive or not) */
    double spread;
} model;

static c2d_world_hit hits_w[MAX_BODIES], hits_b[MAX_BODIES];
static c2d_world_ray_hit rays_w[MAX_BODIES], rays_b[MAX_BODIES];

/* ---- the model --------------------------------------------------------------------------------- */

static int model_add(model *m, int kind, uintptr_t user)
{
    int i = m->n;
    if (i >= MAX_BODIES)
        return -1;
    if (tu_random_body(kind, tu_v(0, 0), m->spread, &m->b[i]) != C2D_OK)
        return -1;
    if (c2d_world_add(m->w, m->b[i].s, user, &m->id[i]) != C2D_OK)
        return -1;
    m->user[i] = user;
    m->cat[i] = 1;
    m->mask[i] = C2D_WORLD_ALL_BITS;
    m->alive[i] = 1;
    m->n++;
    return i;
}

static void model_free(model *m)
{
    c2d_world_destroy(m->w);
    for (int i = 0; i < m->n; i++)
        tu_body_destroy(&m->b[i]);
    m->w = NULL;
    m->n = 0;
}

static int random_live(const model *m)
{
    for (int tries = 0; tries < 1000; tries++) {
        int i = (int)(c2d_test_rand() % (unsigned long)m->n);
        if (m->alive[i])
            return i;
    }
    return -1;
}

static int key_less(uintptr_t ua, c2d_world_id ia, uintptr_t ub, c2d_world_id ib)
{
    return ua != ub ? ua < ub : ia < ib;
}

/* Live bodies in the world's order (user value, then id): the order every brute-force answer uses. */
static int ordered(const model *m, int *out)
{
    int k = 0;
    for (int i = 0; i < m->n; i++)
        if (m->alive[i])
            out[k++] = i;
    for (int a = 1; a < k; a++) /* insertion sort: about a thousand entries, few checks */
        for (int j = a; j > 0 && key_less(m->user[out[j]], m->id[out[j]], m->user[out[j - 1]], m->id[out[j - 1]]);
             j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return k;
}

static int sees(const c2d_world_filter *f, const model *m, int i)
{
    return !f || ((f->category & m->mask[i]) && (m->cat[i] & f->mask));
}

/* ---- one round of checks ------------------------------------------------------------------------ */

static int same_hits(const c2d_world_hit *a, const c2d_world_hit *b, int n)
{
    for (int k = 0; k < n; k++)
        if (a[k].id != b[k].id || a[k].user != b[k].user)
            return 0;
    return 1;
}

static int same_rays(const c2d_world_ray_hit *a, const c2d_world_ray_hit *b, int n)
{
    for (int k = 0; k < n; k++)
        if (a[k].id != b[k].id || a[k].user != b[k].user || memcmp(&a[k].ray, &b[k].ray, sizeof a[k].ray) != 0)
            return 0;
    return 1;
}

static void random_filter(c2d_world_filter *f)
{
    memset(f, 0, sizeof *f);
    f->category = 1u << (c2d_test_rand() % 3);
    f->mask = (unsigned)(c2d_test_rand() % 8);
}

/* Compares every kind of query and the pair list with brute force; returns 0 after reporting the
 * first difference. */
static int check_against_brute_force(model *m, int queries)
{
    static int ord[MAX_BODIES];
    static c2d_world_pair pw[MAX_BODIES * 40], pb[MAX_BODIES * 40];
    int k = ordered(m, ord), count = -1, nb;
    int live;
    if (c2d_world_count(m->w, &live) != C2D_OK || live != k) {
        c2d_test_fail(__FILE__, __LINE__, "count %d, model has %d", live, k);
        return 0;
    }
    /* Pairs: every pair of live entries, in order, that passes the bits and overlaps. */
    nb = 0;
    for (int x = 0; x < k; x++)
        for (int y = x + 1; y < k; y++) {
            int a = ord[x], b = ord[y], hit = 0;
            if (!((m->cat[a] & m->mask[b]) && (m->cat[b] & m->mask[a])))
                continue;
            c2d_overlap(m->b[a].s, m->b[b].s, &hit);
            if (hit && nb < MAX_BODIES * 40) {
                pb[nb].a = m->id[a];
                pb[nb].b = m->id[b];
                pb[nb].user_a = m->user[a];
                pb[nb].user_b = m->user[b];
                nb++;
            }
        }
    c2d_status st = c2d_world_pairs(m->w, pw, NULL, MAX_BODIES * 40, &count);
    if (st != C2D_OK || count != nb || memcmp(pw, pb, (size_t)nb * sizeof pw[0]) != 0) {
        int first = 0;
        while (first < nb && first < count && memcmp(&pw[first], &pb[first], sizeof pw[0]) == 0)
            first++;
        c2d_test_fail(__FILE__, __LINE__, "pairs: status %d, %d pairs, brute force %d; first difference at %d",
                      (int)st, count, nb, first);
        return 0;
    }
    for (int q = 0; q < queries; q++) {
        c2d_world_filter filter, *f = c2d_test_rand() % 2 ? &filter : NULL;
        random_filter(&filter);
        double s = m->spread * 1.2;
        /* Point: anywhere, or exactly on a vertex of some shape (the boundary counts). */
        c2d_vec2 p = tu_random_point(s);
        if (c2d_test_rand() % 3 == 0) {
            int i = random_live(m);
            if (i >= 0)
                p = m->b[i].g.v[c2d_test_rand() % (unsigned long)m->b[i].g.n];
        }
        nb = 0;
        for (int x = 0; x < k; x++) {
            int in = 0;
            if (sees(f, m, ord[x]) && c2d_contains_point(m->b[ord[x]].s, p, &in) == C2D_OK && in) {
                hits_b[nb].id = m->id[ord[x]];
                hits_b[nb++].user = m->user[ord[x]];
            }
        }
        st = c2d_world_query_point(m->w, p, f, hits_w, MAX_BODIES, &count);
        if (st != C2D_OK || count != nb || !same_hits(hits_w, hits_b, nb)) {
            c2d_test_fail(__FILE__, __LINE__, "point (%.17g, %.17g): %d hits, brute force %d", p.x, p.y, count, nb);
            return 0;
        }
        /* Box: random, sometimes flat (a segment) or a single point. */
        c2d_aabb box;
        box.min = tu_random_point(s);
        box.max = tu_add(box.min, tu_random_vec(0, 6, 0, 6));
        int flat = (int)(c2d_test_rand() % 6);
        if (flat == 0)
            box.max.x = box.min.x;
        else if (flat == 1)
            box.max.y = box.min.y;
        else if (flat == 2)
            box.max = box.min;
        c2d_shape *probe = NULL;
        if (box.max.x > box.min.x && box.max.y > box.min.y)
            c2d_rect_new(0.5 * (box.min.x + box.max.x), 0.5 * (box.min.y + box.max.y), box.max.x - box.min.x,
                         box.max.y - box.min.y, 0, &probe);
        else if (box.max.x > box.min.x || box.max.y > box.min.y)
            c2d_segment_new(box.min, box.max, &probe);
        nb = 0;
        for (int x = 0; x < k; x++) {
            int in = 0;
            if (!sees(f, m, ord[x]))
                continue;
            if (probe)
                c2d_overlap(probe, m->b[ord[x]].s, &in);
            else
                c2d_contains_point(m->b[ord[x]].s, box.min, &in);
            if (in) {
                hits_b[nb].id = m->id[ord[x]];
                hits_b[nb++].user = m->user[ord[x]];
            }
        }
        c2d_shape_destroy(probe);
        st = c2d_world_query_aabb(m->w, box, f, hits_w, MAX_BODIES, &count);
        if (st != C2D_OK || count != nb || !same_hits(hits_w, hits_b, nb)) {
            c2d_test_fail(__FILE__, __LINE__, "box (%.17g, %.17g)-(%.17g, %.17g): status %d, %d hits, brute force %d",
                          box.min.x, box.min.y, box.max.x, box.max.y, (int)st, count, nb);
            return 0;
        }
        /* Shape: a random probe of a random kind. */
        tu_body pr;
        if (tu_random_body((int)(c2d_test_rand() % TU_KINDS), tu_v(0, 0), s, &pr) != C2D_OK) {
            c2d_test_fail(__FILE__, __LINE__, "could not make a probe");
            return 0;
        }
        nb = 0;
        for (int x = 0; x < k; x++) {
            int in = 0;
            if (sees(f, m, ord[x]) && c2d_overlap(pr.s, m->b[ord[x]].s, &in) == C2D_OK && in) {
                hits_b[nb].id = m->id[ord[x]];
                hits_b[nb++].user = m->user[ord[x]];
            }
        }
        st = c2d_world_query_shape(m->w, pr.s, f, hits_w, MAX_BODIES, &count);
        tu_body_destroy(&pr);
        if (st != C2D_OK || count != nb || !same_hits(hits_w, hits_b, nb)) {
            c2d_test_fail(__FILE__, __LINE__, "shape query: %d hits, brute force %d", count, nb);
            return 0;
        }
        /* Ray: random, axis-aligned one time in three (zero direction components are their own case),
         * bounded or not. */
        c2d_vec2 o = tu_random_point(s), d = tu_random_vec(-1, 1, -1, 1);
        int axis = (int)(c2d_test_rand() % 6), at = random_live(m);
        if (axis == 0)
            d.x = 0;
        else if (axis == 1)
            d.y = 0;
        else if (axis == 2 && at >= 0) {
            /* Through a vertex of an entry as placed, or along one of its edges: where the slab tests
             * of the tree's boxes and the exact test of the shape must agree about touching. */
            c2d_vec2 v[TU_MAXV];
            int nv = 0;
            c2d_shape_get_vertices(m->b[at].s, v, TU_MAXV, &nv);
            int vi = (int)(c2d_test_rand() % (unsigned long)nv);
            if (nv >= 2 && c2d_test_rand() % 2) {
                d = tu_sub(v[(vi + 1) % nv], v[vi]);
                o = tu_sub(v[vi], tu_scale(d, c2d_test_uniform(0, 2)));
            } else {
                d = tu_sub(v[vi], o);
            }
        }
        if (d.x == 0 && d.y == 0)
            d.x = 1;
        double max_t = c2d_test_rand() % 2 ? INFINITY : c2d_test_uniform(0, 40);
        nb = 0;
        for (int x = 0; x < k; x++) {
            c2d_ray_hit h;
            /* A hit has a finite t (c2d_raycast 1.0.0 calls a miss a hit at t = +inf when max_t is
             * infinite; reported as a core bug). */
            if (sees(f, m, ord[x]) && c2d_raycast(m->b[ord[x]].s, o, d, max_t, &h) == C2D_OK && h.hit &&
                h.t < INFINITY) {
                /* Insert by t; equal t keeps the world's order (ord is already in it). */
                int j = nb++;
                while (j > 0 && rays_b[j - 1].ray.t > h.t) {
                    rays_b[j] = rays_b[j - 1];
                    j--;
                }
                rays_b[j].id = m->id[ord[x]];
                rays_b[j].user = m->user[ord[x]];
                rays_b[j].ray = h;
            }
        }
        st = c2d_world_raycast_all(m->w, o, d, max_t, f, rays_w, MAX_BODIES, &count);
        if (st != C2D_OK || count != nb || !same_rays(rays_w, rays_b, nb)) {
            c2d_test_fail(__FILE__, __LINE__, "ray (%.17g, %.17g) + t (%.17g, %.17g): %d hits, brute force %d", o.x,
                          o.y, d.x, d.y, count, nb);
            return 0;
        }
        c2d_world_ray_hit first;
        st = c2d_world_raycast(m->w, o, d, max_t, f, &first);
        if (st != C2D_OK || first.ray.hit != (nb > 0) || (nb > 0 && !same_rays(&first, &rays_b[0], 1))) {
            c2d_test_fail(__FILE__, __LINE__, "first hit of ray (%.17g, %.17g) + t (%.17g, %.17g) differs", o.x, o.y,
                          d.x, d.y);
            return 0;
        }
    }
    return 1;
}

/* One random change to the world, mirrored in the model. */
static int random_change(model *m, uintptr_t *next_user)
{
    unsigned long r = c2d_test_rand() % 100;
    int i = random_live(m);
    if (r < 60 && i >= 0) {
        /* Mostly small moves (inside the fat box), sometimes large ones and teleports. */
        double step = r < 40 ? 0.05 : (r < 55 ? 1.0 : m->spread);
        c2d_status st = tu_body_move(&m->b[i], tu_random_vec(-step, step, -step, step));
        if (st == C2D_OK && r % 3 == 0) {
            c2d_vec2 pos;
            c2d_shape_get_position(m->b[i].s, &pos);
            /* Turn about the shape's own position: carry the geometry the same way. */
            double a = c2d_test_uniform(-1, 1);
            tu_geom_translate(&m->b[i].g, tu_scale(pos, -1));
            tu_geom_rotate(&m->b[i].g, a);
            tu_geom_translate(&m->b[i].g, pos);
            st = c2d_shape_rotate(m->b[i].s, a);
        }
        return st == C2D_OK && c2d_world_update(m->w, m->id[i]) == C2D_OK;
    }
    if (r < 75) {
        uintptr_t u = (*next_user)++ % 700; /* repeats, so ties are broken by id */
        return model_add(m, (int)(c2d_test_rand() % TU_KINDS), u) >= 0 || m->n >= MAX_BODIES;
    }
    if (r < 90 && i >= 0) {
        if (c2d_world_remove(m->w, m->id[i]) != C2D_OK)
            return 0;
        m->alive[i] = 0;
        /* The old id is dead now, whatever reuses the slot. */
        return c2d_world_update(m->w, m->id[i]) == C2D_ERR_RANGE;
    }
    if (r < 95 && i >= 0) {
        m->cat[i] = 1u << (c2d_test_rand() % 3);
        m->mask[i] = (unsigned)(c2d_test_rand() % 8);
        return c2d_world_set_bits(m->w, m->id[i], m->cat[i], m->mask[i]) == C2D_OK;
    }
    if (i >= 0) {
        m->user[i] = (uintptr_t)(c2d_test_rand() % 700);
        return c2d_world_set_user(m->w, m->id[i], m->user[i]) == C2D_OK;
    }
    return 1;
}

static void run_random_world(double spread, int optimize)
{
    static model m;
    memset(&m, 0, sizeof m);
    m.spread = spread;
    ENSURE_OK(c2d_world_new(&m.w));
    uintptr_t next_user = 0;
    for (int i = 0; i < 1000; i++)
        ENSURE(model_add(&m, i % TU_KINDS, next_user++ % 700) == i);
    if (optimize)
        ENSURE_OK(c2d_world_optimize(m.w));
    int ok = check_against_brute_force(&m, 40);
    long rounds = c2d_test_iterations(20);
    for (long round = 0; ok && round < rounds; round++) {
        /* Add and remove at the same rate, so the world stays near a thousand shapes. */
        for (int c = 0; ok && c < 500; c++)
            ok = random_change(&m, &next_user);
        if (ok && m.n >= MAX_BODIES - 100) {
            /* Out of model slots: compact by clearing the dead (their shapes are out of the world). */
            int k = 0;
            for (int i = 0; i < m.n; i++) {
                if (!m.alive[i]) {
                    tu_body_destroy(&m.b[i]);
                    continue;
                }
                m.b[k] = m.b[i];
                m.id[k] = m.id[i];
                m.user[k] = m.user[i];
                m.cat[k] = m.cat[i];
                m.mask[k] = m.mask[i];
                m.alive[k] = 1;
                k++;
            }
            m.n = k;
        }
        if (ok && optimize && round % 2)
            ok = c2d_world_optimize(m.w) == C2D_OK;
        if (ok)
            ok = check_against_brute_force(&m, 40);
    }
    model_free(&m);
    ENSURE(ok);
}

TEST(world_queries_and_pairs_equal_brute_force_in_a_crowded_world)
{
    run_random_world(15.0, 0);
}

TEST(world_queries_and_pairs_equal_brute_force_in_a_sparse_world)
{
    run_random_world(80.0, 0);
}

TEST(world_queries_and_pairs_equal_brute_force_after_optimize)
{
    run_random_world(40.0, 1);
}

/* ---- order -------------------------------------------------------------------------------------- */

TEST(world_results_do_not_depend_on_insertion_order)
{
    /* The same 300 shapes with the same distinct user values, added in two different orders (and the
     * second world churned by updates): every list must come out the same. */
    enum { N = 300 };
    static tu_body b[N];
    static c2d_world_pair p1[N * 20], p2[N * 20];
    c2d_world *w1, *w2;
    c2d_world_id id;
    int perm[N];
    ENSURE_OK(c2d_world_new(&w1));
    ENSURE_OK(c2d_world_new(&w2));
    for (int i = 0; i < N; i++) {
        ENSURE_OK(tu_random_body(i % TU_KINDS, tu_v(0, 0), 15, &b[i]));
        perm[i] = i;
    }
    for (int i = N - 1; i > 0; i--) {
        int j = (int)(c2d_test_rand() % (unsigned long)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 0; i < N; i++) {
        ENSURE_OK(c2d_world_add(w1, b[i].s, (uintptr_t)(1000 + i), &id));
        ENSURE_OK(c2d_world_add(w2, b[perm[i]].s, (uintptr_t)(1000 + perm[i]), &id));
        ENSURE_OK(c2d_world_update(w2, id));
    }
    int n1, n2;
    ENSURE_OK(c2d_world_pairs(w1, p1, NULL, N * 20, &n1));
    ENSURE_OK(c2d_world_pairs(w2, p2, NULL, N * 20, &n2));
    ENSURE(n1 == n2 && n1 > 0);
    for (int k = 0; k < n1; k++)
        ENSURE(p1[k].user_a == p2[k].user_a && p1[k].user_b == p2[k].user_b && p1[k].user_a < p1[k].user_b);
    for (int q = 0; q < 50; q++) {
        c2d_vec2 o = tu_random_point(20), d = tu_random_vec(-1, 1, -1, 1);
        ENSURE_OK(c2d_world_raycast_all(w1, o, d, INFINITY, NULL, rays_w, MAX_BODIES, &n1));
        ENSURE_OK(c2d_world_raycast_all(w2, o, d, INFINITY, NULL, rays_b, MAX_BODIES, &n2));
        ENSURE(n1 == n2);
        for (int k = 0; k < n1; k++)
            ENSURE(rays_w[k].user == rays_b[k].user && rays_w[k].ray.t == rays_b[k].ray.t);
        c2d_aabb box;
        box.min = tu_random_point(15);
        box.max = tu_add(box.min, tu_v(8, 8));
        ENSURE_OK(c2d_world_query_aabb(w1, box, NULL, hits_w, MAX_BODIES, &n1));
        ENSURE_OK(c2d_world_query_aabb(w2, box, NULL, hits_b, MAX_BODIES, &n2));
        ENSURE(n1 == n2);
        for (int k = 0; k < n1; k++)
            ENSURE(hits_w[k].user == hits_b[k].user && (k == 0 || hits_w[k - 1].user < hits_w[k].user));
    }
    c2d_world_destroy(w1);
    c2d_world_destroy(w2);
    for (int i = 0; i < N; i++)
        tu_body_destroy(&b[i]);
}

TEST(world_orders_equal_user_values_by_id)
{
    c2d_shape *s[3];
    c2d_world *w;
    c2d_world_id id[3];
    int n;
    ENSURE_OK(c2d_world_new(&w));
    for (int i = 0; i < 3; i++) {
        ENSURE_OK(c2d_circle_new(i * 0.5, 0, 1, &s[i]));
        ENSURE_OK(c2d_world_add(w, s[i], 7, &id[i]));
    }
    ENSURE(id[0] < id[1] && id[1] < id[2]);
    ENSURE_OK(c2d_world_query_point(w, tu_v(0.5, 0), NULL, hits_w, 3, &n));
    ENSURE(n == 3 && hits_w[0].id == id[0] && hits_w[1].id == id[1] && hits_w[2].id == id[2]);
    /* A ray along the x axis from the left enters circle 0 first; from x = 0.5 (inside all three) every
     * hit is at t = 0, and the tie goes to the smallest id. */
    c2d_world_ray_hit h;
    ENSURE_OK(c2d_world_raycast(w, tu_v(0.5, 0), tu_v(1, 0), INFINITY, NULL, &h));
    ENSURE(h.ray.hit == 1 && h.ray.t == 0 && h.id == id[0]);
    ENSURE_OK(c2d_world_set_user(w, id[0], 9));
    ENSURE_OK(c2d_world_raycast(w, tu_v(0.5, 0), tu_v(1, 0), INFINITY, NULL, &h));
    ENSURE(h.id == id[1]);
    c2d_world_destroy(w);
    for (int i = 0; i < 3; i++)
        c2d_shape_destroy(s[i]);
}

/* ---- ids, counts, moves ------------------------------------------------------------------------ */

TEST(world_ids_die_with_their_entries_and_are_not_confused_with_reused_slots)
{
    c2d_shape *a, *b, *got = NULL;
    c2d_world *w;
    c2d_world_id ia, ib;
    uintptr_t user = 0;
    int n = -1;
    ENSURE_OK(c2d_circle_new(0, 0, 1, &a));
    ENSURE_OK(c2d_circle_new(5, 0, 1, &b));
    ENSURE_OK(c2d_world_new(&w));
    ENSURE_OK(c2d_world_count(w, &n));
    ENSURE(n == 0);
    ENSURE_OK(c2d_world_add(w, a, 11, &ia));
    ENSURE(ia != 0);
    ENSURE_OK(c2d_world_get(w, ia, &got, &user));
    ENSURE(got == a && user == 11);
    ENSURE_OK(c2d_world_remove(w, ia));
    ENSURE(c2d_world_remove(w, ia) == C2D_ERR_RANGE);
    ENSURE_OK(c2d_world_add(w, b, 22, &ib)); /* takes the freed slot */
    ENSURE(ib != ia);
    ENSURE(c2d_world_get(w, ia, &got, NULL) == C2D_ERR_RANGE);
    ENSURE(c2d_world_update(w, ia) == C2D_ERR_RANGE);
    ENSURE(c2d_world_set_user(w, ia, 1) == C2D_ERR_RANGE);
    ENSURE(c2d_world_set_bits(w, ia, 1, 1) == C2D_ERR_RANGE);
    ENSURE(c2d_world_get(w, 0, &got, NULL) == C2D_ERR_RANGE);
    ENSURE(c2d_world_get(w, ib + (1ull << 40), &got, NULL) == C2D_ERR_RANGE);
    ENSURE_OK(c2d_world_get(w, ib, &got, &user));
    ENSURE(got == b && user == 22);
    ENSURE_OK(c2d_world_count(w, &n));
    ENSURE(n == 1);
    c2d_world_destroy(w);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(world_sees_a_move_only_after_update_and_then_exactly)
{
    c2d_shape *s;
    c2d_world *w;
    c2d_world_id id;
    int n;
    c2d_world_hit h[1];
    ENSURE_OK(c2d_circle_new(0, 0, 1, &s));
    ENSURE_OK(c2d_world_new(&w));
    ENSURE_OK(c2d_world_add(w, s, 0, &id));
    ENSURE_OK(c2d_shape_set_position(s, tu_v(100, 0)));
    /* Before the update the broadphase still has the box at the origin: the point at 100 is missed. */
    ENSURE_OK(c2d_world_query_point(w, tu_v(100, 0), NULL, h, 1, &n));
    ENSURE(n == 0);
    ENSURE_OK(c2d_world_update(w, id));
    ENSURE_OK(c2d_world_query_point(w, tu_v(100, 0), NULL, h, 1, &n));
    ENSURE(n == 1);
    ENSURE_OK(c2d_world_query_point(w, tu_v(101, 0), NULL, h, 1, &n)); /* the boundary */
    ENSURE(n == 1);
    ENSURE_OK(c2d_world_query_point(w, tu_v(0, 0), NULL, h, 1, &n));
    ENSURE(n == 0);
    c2d_world_destroy(w);
    c2d_shape_destroy(s);
}

/* ---- filters and callbacks --------------------------------------------------------------------- */

TEST(world_bits_decide_which_entries_pair_and_which_queries_see)
{
    c2d_shape *s[3];
    c2d_world *w;
    c2d_world_id id[3];
    c2d_world_pair p[3];
    int n;
    ENSURE_OK(c2d_world_new(&w));
    for (int i = 0; i < 3; i++) {
        ENSURE_OK(c2d_circle_new(i, 0, 1, &s[i]));
        ENSURE_OK(c2d_world_add(w, s[i], (uintptr_t)i, &id[i]));
    }
    ENSURE_OK(c2d_world_pairs(w, p, NULL, 3, &n));
    ENSURE(n == 3);
    /* Entry 2 is a "ghost": category 2, and it only collides with category 4, which nobody has. */
    ENSURE_OK(c2d_world_set_bits(w, id[2], 2, 4));
    unsigned cat, mask;
    ENSURE_OK(c2d_world_get_bits(w, id[2], &cat, &mask));
    ENSURE(cat == 2 && mask == 4);
    ENSURE_OK(c2d_world_pairs(w, p, NULL, 3, &n));
    ENSURE(n == 1 && p[0].a == id[0] && p[0].b == id[1]);
    c2d_world_filter f;
    memset(&f, 0, sizeof f);
    f.category = 4;
    f.mask = 2;
    ENSURE_OK(c2d_world_query_point(w, tu_v(1, 0), &f, hits_w, 3, &n));
    ENSURE(n == 1 && hits_w[0].id == id[2]);
    ENSURE_OK(c2d_world_query_point(w, tu_v(1, 0), NULL, hits_w, 3, &n)); /* on all three (two boundaries) */
    ENSURE(n == 3);
    c2d_world_destroy(w);
    for (int i = 0; i < 3; i++)
        c2d_shape_destroy(s[i]);
}

typedef struct remover {
    c2d_world *w;
    c2d_world_id victims[8];
    int nvictims;
    int calls;
    c2d_shape *added;
} remover;

/* Removes every victim on its first call, adds a shape, and refuses odd user values. */
static int remove_during_query(void *ctx, c2d_world_id id, uintptr_t user)
{
    remover *r = (remover *)ctx;
    (void)id;
    if (r->calls++ == 0) {
        for (int i = 0; i < r->nvictims; i++)
            c2d_world_remove(r->w, r->victims[i]);
        c2d_world_id added;
        c2d_world_add(r->w, r->added, 99, &added);
    }
    return user % 2 == 0;
}

static int remove_during_pairs(void *ctx, c2d_world_id a, uintptr_t ua, c2d_world_id b, uintptr_t ub)
{
    (void)a;
    (void)b;
    (void)ub;
    return remove_during_query(ctx, 0, ua);
}

TEST(world_callbacks_may_remove_and_add_entries_mid_query)
{
    enum { N = 20 };
    c2d_shape *s[N], *extra;
    c2d_world *w;
    c2d_world_id id[N];
    c2d_world_pair p[N * N];
    int n;
    ENSURE_OK(c2d_world_new(&w));
    ENSURE_OK(c2d_circle_new(0, 0, 1, &extra));
    for (int i = 0; i < N; i++) {
        ENSURE_OK(c2d_circle_new(0.1 * i, 0, 1, &s[i]));
        ENSURE_OK(c2d_world_add(w, s[i], (uintptr_t)i, &id[i]));
    }
    remover r;
    memset(&r, 0, sizeof r);
    r.w = w;
    r.added = extra;
    r.nvictims = 3;
    r.victims[0] = id[4];
    r.victims[1] = id[6];
    r.victims[2] = id[7];
    c2d_world_filter f;
    f.category = 1;
    f.mask = C2D_WORLD_ALL_BITS;
    f.accept = remove_during_query;
    f.ctx = &r;
    /* All 20 overlap the point; the first callback removes 4, 6, 7 (so they are never reported) and adds
     * a shape (not seen by this query); odd user values are refused. */
    ENSURE_OK(c2d_world_query_point(w, tu_v(0.95, 0), &f, hits_w, N, &n));
    ENSURE(n == 8);
    for (int k = 0; k < n; k++)
        ENSURE(hits_w[k].user % 2 == 0 && hits_w[k].user != 4 && hits_w[k].user != 6);
    ENSURE_OK(c2d_world_count(w, &n));
    ENSURE(n == N - 3 + 1);
    /* The same during a ray cast and during pair finding. */
    r.calls = 0;
    r.victims[0] = id[8];
    r.nvictims = 1;
    ENSURE_OK(c2d_world_raycast_all(w, tu_v(-5, 0), tu_v(1, 0), INFINITY, &f, rays_w, N, &n));
    for (int k = 0; k < n; k++)
        ENSURE(rays_w[k].user % 2 == 0 && rays_w[k].user != 8);
    c2d_world_ray_hit h;
    r.calls = 0;
    r.victims[0] = id[0];
    ENSURE_OK(c2d_world_raycast(w, tu_v(-5, 0), tu_v(1, 0), INFINITY, &f, &h));
    ENSURE(h.ray.hit && h.user == 2); /* 0 removed, 1 refused */
    r.calls = 0;
    r.victims[0] = id[2];
    r.victims[1] = id[10];
    r.nvictims = 2;
    ENSURE_OK(c2d_world_set_pair_filter(w, remove_during_pairs, &r));
    ENSURE_OK(c2d_world_pairs(w, p, NULL, N * N, &n));
    ENSURE(n > 0);
    for (int k = 0; k < n; k++) {
        ENSURE(p[k].user_a % 2 == 0);
        ENSURE(p[k].user_a != 2 && p[k].user_b != 2 && p[k].user_a != 10 && p[k].user_b != 10);
        uintptr_t u;
        ENSURE_OK(c2d_world_get(w, p[k].a, NULL, &u)); /* every reported entry is still alive */
    }
    c2d_world_destroy(w);
    for (int i = 0; i < N; i++)
        c2d_shape_destroy(s[i]);
    c2d_shape_destroy(extra);
}

/* ---- capacity and contacts --------------------------------------------------------------------- */

TEST(world_reports_the_needed_count_and_writes_nothing_when_the_array_is_too_small)
{
    c2d_shape *s[4];
    c2d_world *w;
    c2d_world_id id;
    c2d_world_pair p[6];
    int n = -1;
    ENSURE_OK(c2d_world_new(&w));
    for (int i = 0; i < 4; i++) {
        ENSURE_OK(c2d_rect_new(i * 0.75, 0, 1, 1, 0, &s[i])); /* each overlaps only its neighbours */
        ENSURE_OK(c2d_world_add(w, s[i], (uintptr_t)i, &id));
    }
    memset(hits_w, 0xAB, 4 * sizeof hits_w[0]);
    memcpy(hits_b, hits_w, 4 * sizeof hits_w[0]);
    ENSURE(c2d_world_query_point(w, tu_v(0.375, 0), NULL, hits_w, 1, &n) == C2D_ERR_CAPACITY);
    ENSURE(n == 2 && memcmp(hits_w, hits_b, 4 * sizeof hits_w[0]) == 0);
    memset(p, 0xAB, sizeof p);
    c2d_world_pair before[6];
    memcpy(before, p, sizeof p);
    ENSURE(c2d_world_pairs(w, p, NULL, 2, &n) == C2D_ERR_CAPACITY);
    ENSURE(n == 3 && memcmp(p, before, sizeof p) == 0);
    n = -1;
    ENSURE(c2d_world_pairs(w, NULL, NULL, 0, &n) == C2D_OK && n == 3); /* asking for the count */
    ENSURE(c2d_world_raycast_all(w, tu_v(-3, 0), tu_v(1, 0), INFINITY, NULL, rays_w, 3, &n) == C2D_ERR_CAPACITY);
    ENSURE(n == 4);
    c2d_world_destroy(w);
    for (int i = 0; i < 4; i++)
        c2d_shape_destroy(s[i]);
}

TEST(world_pairs_carry_the_contact_from_first_to_second_on_request)
{
    c2d_shape *a, *b;
    c2d_world *w;
    c2d_world_id ia, ib;
    c2d_world_pair p[1];
    c2d_contact c[1], direct;
    int n;
    ENSURE_OK(c2d_world_new(&w));
    ENSURE_OK(c2d_circle_new(0, 0, 1, &a));
    ENSURE_OK(c2d_rect_new(1.5, 0, 2, 2, 0, &b));
    /* b is added first but has the smaller user value, so it comes first in the pair. */
    ENSURE_OK(c2d_world_add(w, a, 2, &ia));
    ENSURE_OK(c2d_world_add(w, b, 1, &ib));
    ENSURE_OK(c2d_world_pairs(w, p, c, 1, &n));
    ENSURE(n == 1 && p[0].a == ib && p[0].b == ia && p[0].user_a == 1 && p[0].user_b == 2);
    ENSURE_OK(c2d_collide(b, a, &direct));
    ENSURE(memcmp(&direct, &c[0], sizeof direct) == 0);
    ENSURE_NEAR(c[0].depth, 0.5, 1e-12);
    ENSURE_NEAR(c[0].normal.x, -1, 1e-12); /* from the box towards the circle */
    c2d_world_destroy(w);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

/* A ray touches a shape within the rounding of its own offsets, which grows with the origin's distance:
 * c2d_raycast calls a rectangle 1e-300 wide, 3.8e-81 beside a ray from 1.57 away, touched. The world
 * culled it by its box, grown only by the shape's own rounding, and missed what c2d_raycast hits (a
 * fuzz find). Its boxes are now tested grown by the ray's allowance too. */
TEST(world_ray_hits_what_c2d_raycast_hits_beside_a_tiny_shape)
{
    static const double beside[] = {3.8e-81, -3.8e-81, 1e-20, 1e-17};
    for (int k = 0; k < 4; k++) {
        c2d_world *w;
        c2d_shape *box;
        ENSURE_OK(c2d_world_new(&w));
        ENSURE_OK(c2d_rect_new(beside[k], 0, 1e-300, 1e-300, 0, &box));
        c2d_vec2 o = {-1.8738675667544948e-136, -1.5707963267948966}, d = {2.9043548842377183e-144, 10};
        c2d_ray_hit direct;
        ENSURE_OK(c2d_raycast(box, o, d, 136.53125, &direct));
        c2d_world_id id;
        ENSURE_OK(c2d_world_add(w, box, 7, &id));
        for (int opt = 0; opt < 2; opt++) {
            c2d_world_ray_hit hit, all[2];
            int n = 0;
            if (opt)
                ENSURE_OK(c2d_world_optimize(w));
            ENSURE_OK(c2d_world_raycast(w, o, d, 136.53125, NULL, &hit));
            ENSURE_OK(c2d_world_raycast_all(w, o, d, 136.53125, NULL, all, 2, &n));
            ENSURE_MSG(hit.ray.hit == direct.hit && (!direct.hit || hit.ray.t == direct.t) && n == direct.hit,
                       "beside %g: c2d_raycast hit %d at %.17g, the world %d at %.17g (all: %d)", beside[k], direct.hit,
                       direct.t, hit.ray.hit, hit.ray.t, n);
        }
        c2d_world_destroy(w);
        c2d_shape_destroy(box);
    }
}
