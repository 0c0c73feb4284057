/* test_world_errors.c - bad input to every world function: a status, never a crash, and nothing
 * changed (the world answers the same afterwards, out-parameters keep their old values). */
#include "test.h"
#include "testutil.h"

#include <string.h>

/* A world with two overlapping circles, and the ids of both. */
typedef struct fixture {
    c2d_world *w;
    c2d_shape *s[2];
    c2d_world_id id[2];
} fixture;

static int fixture_make(fixture *f)
{
    memset(f, 0, sizeof *f);
    if (c2d_world_new(&f->w) || c2d_circle_new(0, 0, 1, &f->s[0]) || c2d_circle_new(1, 0, 1, &f->s[1]))
        return 0;
    return c2d_world_add(f->w, f->s[0], 10, &f->id[0]) == C2D_OK && c2d_world_add(f->w, f->s[1], 20, &f->id[1]) == C2D_OK;
}

static void fixture_free(fixture *f)
{
    c2d_world_destroy(f->w);
    c2d_shape_destroy(f->s[0]);
    c2d_shape_destroy(f->s[1]);
}

/* Still two entries, still one pair: what every failed call must leave behind. */
static int fixture_intact(const fixture *f)
{
    c2d_world_pair p[2];
    int n = -1, pairs = -1;
    return c2d_world_count(f->w, &n) == C2D_OK && n == 2 && c2d_world_pairs(f->w, p, NULL, 2, &pairs) == C2D_OK &&
           pairs == 1 && p[0].a == f->id[0] && p[0].b == f->id[1];
}

TEST(world_lifecycle_calls_reject_null)
{
    c2d_shape *s;
    c2d_world_id id = 77;
    ENSURE(c2d_world_new(NULL) == C2D_ERR_NULL);
    c2d_world_destroy(NULL); /* ignored, like free */
    fixture f;
    ENSURE(fixture_make(&f));
    ENSURE_OK(c2d_circle_new(0, 0, 1, &s));
    ENSURE(c2d_world_add(NULL, s, 0, &id) == C2D_ERR_NULL);
    ENSURE(c2d_world_add(f.w, NULL, 0, &id) == C2D_ERR_NULL);
    ENSURE(c2d_world_add(f.w, s, 0, NULL) == C2D_ERR_NULL);
    ENSURE(id == 77);
    ENSURE(c2d_world_remove(NULL, f.id[0]) == C2D_ERR_NULL);
    ENSURE(c2d_world_update(NULL, f.id[0]) == C2D_ERR_NULL);
    ENSURE(c2d_world_optimize(NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_set_pair_filter(NULL, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(fixture_intact(&f));
    c2d_shape_destroy(s);
    fixture_free(&f);
}

TEST(world_calls_with_an_unknown_id_return_range_and_change_nothing)
{
    fixture f;
    c2d_shape *got = NULL;
    uintptr_t user = 5;
    unsigned cat = 3, mask = 4;
    ENSURE(fixture_make(&f));
    c2d_world_id bad[] = {0, f.id[1] + (1ull << 20), f.id[0] ^ 1, ~0ull, 1};
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ENSURE(c2d_world_remove(f.w, bad[k]) == C2D_ERR_RANGE);
        ENSURE(c2d_world_update(f.w, bad[k]) == C2D_ERR_RANGE);
        ENSURE(c2d_world_get(f.w, bad[k], &got, &user) == C2D_ERR_RANGE);
        ENSURE(c2d_world_set_user(f.w, bad[k], 1) == C2D_ERR_RANGE);
        ENSURE(c2d_world_set_bits(f.w, bad[k], 0, 0) == C2D_ERR_RANGE);
        ENSURE(c2d_world_get_bits(f.w, bad[k], &cat, &mask) == C2D_ERR_RANGE);
    }
    ENSURE(got == NULL && user == 5 && cat == 3 && mask == 4);
    ENSURE(fixture_intact(&f));
    fixture_free(&f);
}

TEST(world_getters_and_setters_reject_null_leaving_outputs_untouched)
{
    fixture f;
    int n = -1;
    ENSURE(fixture_make(&f));
    ENSURE(c2d_world_count(NULL, &n) == C2D_ERR_NULL && n == -1);
    ENSURE(c2d_world_count(f.w, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_get(f.w, f.id[0], NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_get(NULL, f.id[0], NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_get_bits(f.w, f.id[0], NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_set_user(NULL, f.id[0], 1) == C2D_ERR_NULL);
    ENSURE(c2d_world_set_bits(NULL, f.id[0], 1, 1) == C2D_ERR_NULL);
    ENSURE(c2d_world_set_margin(NULL, 0, 0) == C2D_ERR_NULL);
    ENSURE(c2d_world_set_margin(f.w, NAN, 0) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_set_margin(f.w, 0, INFINITY) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_set_margin(f.w, -1, 0) == C2D_ERR_RANGE);
    ENSURE(c2d_world_set_margin(f.w, 0, -0.5) == C2D_ERR_RANGE);
    ENSURE(c2d_world_set_margin(f.w, 1e16, 0) == C2D_ERR_RANGE);
    ENSURE_OK(c2d_world_set_margin(f.w, 0, 0)); /* zero is allowed: tight boxes */
    ENSURE(fixture_intact(&f));
    fixture_free(&f);
}

TEST(world_queries_reject_null_bad_numbers_and_bad_capacities_writing_nothing)
{
    fixture f;
    c2d_world_hit hits[2];
    c2d_world_ray_hit rays[2], one;
    c2d_world_pair pairs[2];
    int n = -1;
    ENSURE(fixture_make(&f));
    memset(hits, 0x5A, sizeof hits);
    memset(rays, 0x5A, sizeof rays);
    memset(&one, 0x5A, sizeof one);
    c2d_world_hit hits0[2];
    c2d_world_ray_hit rays0[2], one0 = one;
    memcpy(hits0, hits, sizeof hits);
    memcpy(rays0, rays, sizeof rays);
    c2d_aabb box, bad_box;
    box.min = tu_v(-1, -1);
    box.max = tu_v(1, 1);
    bad_box.min = tu_v(1, 0);
    bad_box.max = tu_v(0, 1); /* min > max */
    c2d_vec2 nan_p = tu_v(NAN, 0), huge = tu_v(0, 1e16);
    /* NULL world, NULL count, NULL array with a capacity, negative capacity. */
    ENSURE(c2d_world_query_aabb(NULL, box, NULL, hits, 2, &n) == C2D_ERR_NULL);
    ENSURE(c2d_world_query_aabb(f.w, box, NULL, hits, 2, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_query_aabb(f.w, box, NULL, NULL, 2, &n) == C2D_ERR_NULL);
    ENSURE(c2d_world_query_aabb(f.w, box, NULL, hits, -1, &n) == C2D_ERR_RANGE);
    ENSURE(c2d_world_query_point(NULL, box.min, NULL, hits, 2, &n) == C2D_ERR_NULL);
    ENSURE(c2d_world_query_point(f.w, box.min, NULL, hits, -1, &n) == C2D_ERR_RANGE);
    ENSURE(c2d_world_query_shape(f.w, NULL, NULL, hits, 2, &n) == C2D_ERR_NULL);
    ENSURE(c2d_world_query_shape(NULL, f.s[0], NULL, hits, 2, &n) == C2D_ERR_NULL);
    ENSURE(c2d_world_pairs(NULL, pairs, NULL, 2, &n) == C2D_ERR_NULL);
    ENSURE(c2d_world_pairs(f.w, pairs, NULL, 2, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_pairs(f.w, NULL, NULL, 2, &n) == C2D_ERR_NULL);
    ENSURE(c2d_world_pairs(f.w, pairs, NULL, -2, &n) == C2D_ERR_RANGE);
    /* Bad numbers. */
    ENSURE(c2d_world_query_aabb(f.w, bad_box, NULL, hits, 2, &n) == C2D_ERR_RANGE);
    box.max.x = NAN;
    ENSURE(c2d_world_query_aabb(f.w, box, NULL, hits, 2, &n) == C2D_ERR_NOT_FINITE);
    box.max.x = 1e16;
    ENSURE(c2d_world_query_aabb(f.w, box, NULL, hits, 2, &n) == C2D_ERR_RANGE);
    ENSURE(c2d_world_query_point(f.w, nan_p, NULL, hits, 2, &n) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_query_point(f.w, huge, NULL, hits, 2, &n) == C2D_ERR_RANGE);
    /* Rays: the same rules as c2d_raycast. */
    c2d_vec2 o = tu_v(-5, 0), d = tu_v(1, 0);
    ENSURE(c2d_world_raycast(NULL, o, d, 10, NULL, &one) == C2D_ERR_NULL);
    ENSURE(c2d_world_raycast(f.w, o, d, 10, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_raycast(f.w, nan_p, d, 10, NULL, &one) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_raycast(f.w, o, huge, 10, NULL, &one) == C2D_ERR_RANGE);
    ENSURE(c2d_world_raycast(f.w, o, tu_v(0, 0), 10, NULL, &one) == C2D_ERR_DEGENERATE);
    ENSURE(c2d_world_raycast(f.w, o, d, NAN, NULL, &one) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_raycast(f.w, o, d, -1, NULL, &one) == C2D_ERR_RANGE);
    ENSURE(c2d_world_raycast_all(NULL, o, d, 10, NULL, rays, 2, &n) == C2D_ERR_NULL);
    ENSURE(c2d_world_raycast_all(f.w, o, d, 10, NULL, rays, 2, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_raycast_all(f.w, o, d, 10, NULL, rays, -1, &n) == C2D_ERR_RANGE);
    ENSURE(c2d_world_raycast_all(f.w, o, tu_v(0, 0), 10, NULL, rays, 2, &n) == C2D_ERR_DEGENERATE);
    ENSURE(c2d_world_raycast_all(f.w, o, d, -1, NULL, rays, 2, &n) == C2D_ERR_RANGE);
    ENSURE(n == -1);
    ENSURE(memcmp(hits, hits0, sizeof hits) == 0 && memcmp(rays, rays0, sizeof rays) == 0);
    ENSURE(memcmp(&one, &one0, sizeof one) == 0);
    ENSURE(fixture_intact(&f));
    fixture_free(&f);
}

TEST(world_empty_answers_every_query_with_nothing)
{
    c2d_world *w;
    c2d_world_ray_hit h;
    c2d_aabb box;
    int n = -1;
    box.min = tu_v(-1, -1);
    box.max = tu_v(1, 1);
    ENSURE_OK(c2d_world_new(&w));
    ENSURE_OK(c2d_world_query_aabb(w, box, NULL, NULL, 0, &n));
    ENSURE(n == 0);
    ENSURE_OK(c2d_world_pairs(w, NULL, NULL, 0, &n));
    ENSURE(n == 0);
    ENSURE_OK(c2d_world_raycast(w, tu_v(0, 0), tu_v(1, 0), INFINITY, NULL, &h));
    ENSURE(h.ray.hit == 0 && h.id == 0);
    ENSURE_OK(c2d_world_optimize(w));
    c2d_world_destroy(w);
}
