/* test_determinism.c - the same inputs give bit-identical results: a digest of every kind of result
 * (contacts, distances, rays, sweeps, ball steps, world queries and pairs) over a fixed random scene.
 * The test itself checks that the world's answers do not depend on insertion order; suite
 * 15-determinism runs it in separate processes and builds (different memory layouts, with and without
 * sanitizers) and compares the digests, which must be equal to the last bit. */
#include "testutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct digest {
    uint64_t h;
} digest;

/* FNV-1a over the bytes of each value. */
static void mix(digest *d, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++) {
        d->h ^= b[i];
        d->h *= 0x100000001b3ULL;
    }
}

static void mix_contact(digest *d, const c2d_contact *c)
{
    mix(d, &c->count, sizeof c->count);
    if (c->count == 0)
        return;
    mix(d, &c->normal, sizeof c->normal);
    mix(d, &c->depth, sizeof c->depth);
    for (int i = 0; i < c->count; i++) {
        mix(d, &c->points[i], sizeof c->points[i]);
        mix(d, &c->point_depths[i], sizeof c->point_depths[i]);
    }
}

/* Field by field: the structs below have padding between an int and a double, whose bytes are
 * unspecified and must not reach the digest. */
static void mix_ray(digest *d, const c2d_ray_hit *h)
{
    mix(d, &h->hit, sizeof h->hit);
    mix(d, &h->t, sizeof h->t);
    mix(d, &h->point, sizeof h->point);
    mix(d, &h->normal, sizeof h->normal);
}

static void mix_toi(digest *d, const c2d_toi *t)
{
    int state = (int)t->state;
    mix(d, &state, sizeof state);
    mix(d, &t->t, sizeof t->t);
    mix(d, &t->normal, sizeof t->normal);
    mix(d, &t->point, sizeof t->point);
    mix(d, &t->depth, sizeof t->depth);
}

static void mix_sweep_contact(digest *d, const c2d_sweep_contact *c)
{
    int response = (int)c->response;
    mix(d, &c->index, sizeof c->index);
    mix(d, &c->t, sizeof c->t);
    mix(d, &c->point, sizeof c->point);
    mix(d, &c->normal, sizeof c->normal);
    mix(d, &response, sizeof response);
    mix(d, &c->pushed_out, sizeof c->pushed_out);
}

static void mix_move_result(digest *d, const c2d_move_result *r)
{
    mix(d, &r->displacement, sizeof r->displacement);
    mix(d, &r->velocity, sizeof r->velocity);
    mix(d, &r->travelled, sizeof r->travelled);
    mix(d, &r->count, sizeof r->count);
    mix(d, &r->truncated, sizeof r->truncated);
}

#define N_BODIES 400

static void narrow_digest(digest *d, tu_body *b, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n && j < i + 40; j++) {
            c2d_contact c;
            c2d_distance_result r;
            c2d_toi t;
            c2d_collide(b[i].s, b[j].s, &c);
            c2d_distance(b[i].s, b[j].s, &r);
            c2d_sweep(b[i].s, tu_v(1.5, -0.75), b[j].s, tu_v(-0.25, 0.5), &t);
            mix_contact(d, &c);
            mix(d, &r, sizeof r);
            mix_toi(d, &t);
        }
    for (int i = 0; i < n; i++) {
        c2d_ray_hit h;
        c2d_raycast(b[i].s, tu_v(-20, 3), tu_v(7, -1), 10, &h);
        mix_ray(d, &h);
    }
}

static void ball_digest(digest *d, tu_body *b, int n)
{
    c2d_shape *shapes[N_BODIES];
    for (int i = 0; i < n; i++)
        shapes[i] = b[i].s;
    c2d_static_set *set;
    if (c2d_static_set_new((const c2d_shape *const *)shapes, n, NULL, &set) != C2D_OK)
        return;
    for (int k = 0; k < 200; k++) {
        double px = c2d_test_uniform(-12, 12), py = c2d_test_uniform(-12, 12);
        double vx = c2d_test_uniform(-3, 3), vy = c2d_test_uniform(-3, 3), radius = c2d_test_uniform(0.05, 0.5);
        c2d_ball ball = {{px, py}, {vx, vy}, radius};
        for (int s = 0; s < 10; s++) {
            c2d_sweep_contact c[8];
            c2d_move_result r;
            c2d_static_set_step_ball(set, &ball, 1.0, NULL, &r, c, 8);
            mix(d, &ball, sizeof ball);
            mix_move_result(d, &r);
            for (int i = 0; i < r.count && i < 8; i++)
                mix_sweep_contact(d, &c[i]);
        }
    }
    c2d_static_set_destroy(set);
}

/* World answers with the entries added in the order given by perm; user values are body indices,
 * so the promised order is the same whatever the insertion order. */
static uint64_t world_digest(tu_body *b, int n, const int *perm)
{
    digest d = {0xcbf29ce484222325ULL};
    c2d_world *w;
    if (c2d_world_new(&w) != C2D_OK)
        return 0;
    for (int k = 0; k < n; k++) {
        c2d_world_id id;
        c2d_world_add(w, b[perm[k]].s, (uintptr_t)perm[k], &id);
    }
    static c2d_world_pair pairs[N_BODIES * 40];
    static c2d_contact contacts[N_BODIES * 40];
    int count = 0;
    c2d_world_pairs(w, pairs, contacts, N_BODIES * 40, &count);
    mix(&d, &count, sizeof count);
    for (int i = 0; i < count; i++) {
        mix(&d, &pairs[i].user_a, sizeof pairs[i].user_a);
        mix(&d, &pairs[i].user_b, sizeof pairs[i].user_b);
        mix_contact(&d, &contacts[i]);
    }
    for (int q = 0; q < 50; q++) {
        c2d_world_hit hits[N_BODIES];
        c2d_aabb box;
        box.min = tu_v(-12 + q * 0.4, -10 + q * 0.3);
        box.max = tu_v(box.min.x + 3, box.min.y + 2);
        c2d_world_query_aabb(w, box, NULL, hits, N_BODIES, &count);
        mix(&d, &count, sizeof count);
        for (int i = 0; i < count; i++)
            mix(&d, &hits[i].user, sizeof hits[i].user);
        c2d_world_ray_hit rh;
        c2d_world_raycast(w, tu_v(-15, -15 + q * 0.6), tu_v(1, 0.1), 40, NULL, &rh);
        mix(&d, &rh.user, sizeof rh.user);
        mix_ray(&d, &rh.ray);
    }
    c2d_world_destroy(w);
    return d.h;
}

TEST(determinism_digest_is_independent_of_insertion_order)
{
    static tu_body b[N_BODIES];
    int perm[N_BODIES], rev[N_BODIES];
    for (int i = 0; i < N_BODIES; i++) {
        ENSURE_OK(tu_random_body(i % TU_KINDS, tu_v(0, 0), 10.0, &b[i]));
        perm[i] = i;
        rev[i] = N_BODIES - 1 - i;
    }
    digest d = {0xcbf29ce484222325ULL};
    narrow_digest(&d, b, N_BODIES);
    ball_digest(&d, b, N_BODIES);
    uint64_t w1 = world_digest(b, N_BODIES, perm), w2 = world_digest(b, N_BODIES, rev);
    /* A shuffled order too. */
    for (int i = N_BODIES - 1; i > 0; i--) {
        int j = (int)(c2d_test_rand() % (unsigned long)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    uint64_t w3 = world_digest(b, N_BODIES, perm);
    ENSURE_MSG(w1 == w2 && w1 == w3, "world digests differ with insertion order: %016llx %016llx %016llx",
               (unsigned long long)w1, (unsigned long long)w2, (unsigned long long)w3);
    mix(&d, &w1, sizeof w1);
    printf("# determinism digest %016llx\n", (unsigned long long)d.h);
    for (int i = 0; i < N_BODIES; i++)
        tu_body_destroy(&b[i]);
}
