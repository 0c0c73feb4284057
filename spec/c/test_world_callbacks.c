/* test_world_callbacks.c - world calls whose callbacks change the world while they run (add, remove,
 * re-value entries), as the header allows: every call still returns a documented status, a correct
 * count, valid records and the world's order, and asks each callback at most once per entry. Also the
 * one rule of list calls asked for their count only. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ENTRIES 256

/* A world of thin posts along the x axis, and what the callbacks did. */
typedef struct posts {
    c2d_world *world;
    c2d_shape *shapes[MAX_ENTRIES];
    c2d_world_id ids[MAX_ENTRIES];
    int n;
    int asked[MAX_ENTRIES]; /* times a callback was asked about entry k (by user value k) */
    int added;              /* the callback has added its extra posts */
    int extra;              /* how many it adds */
    c2d_response response;
} posts;

static c2d_status post_add(posts *p, double x, double w, uintptr_t user)
{
    c2d_shape *s;
    c2d_status st = c2d_rect_new(x, -5, w, 10, 0, &s);
    if (st != C2D_OK)
        return st;
    p->shapes[p->n] = s;
    return c2d_world_add(p->world, s, user, &p->ids[p->n++]);
}

/* count posts 0.5 wide at x = 2, 4, ... with user values 0 .. count-1. */
static c2d_status posts_new(posts *p, int count)
{
    memset(p, 0, sizeof *p);
    c2d_status st = c2d_world_new(&p->world);
    for (int i = 0; st == C2D_OK && i < count; i++)
        st = post_add(p, 2.0 * (i + 1), 0.5, (uintptr_t)i);
    return st;
}

static void posts_free(posts *p)
{
    c2d_world_destroy(p->world);
    for (int i = 0; i < p->n; i++)
        c2d_shape_destroy(p->shapes[i]);
}

/* The first time it is asked, adds `extra` posts between the others (users 1000 + i). */
static void add_extra_once(posts *p)
{
    if (p->added)
        return;
    p->added = 1;
    for (int i = 0; i < p->extra && p->n < MAX_ENTRIES; i++)
        post_add(p, 2.0 * (i + 1) + 1, 0.5, (uintptr_t)(1000 + i));
}

static void count_ask(posts *p, uintptr_t user)
{
    int k = user >= 1000 ? (int)(user - 1000) + 128 : (int)user;
    if (k >= 0 && k < MAX_ENTRIES)
        p->asked[k]++;
}

static int accept_and_add(void *ctx, c2d_world_id id, uintptr_t user)
{
    posts *p = (posts *)ctx;
    (void)id;
    count_ask(p, user);
    add_extra_once(p);
    return 1;
}

static c2d_response respond_and_add(void *ctx, c2d_world_id id, uintptr_t user)
{
    posts *p = (posts *)ctx;
    (void)id;
    count_ask(p, user);
    add_extra_once(p);
    return p->response;
}

/* A ball of radius 0.2 at the origin, moving along x at speed vx. */
static c2d_ball ball_at(double vx)
{
    c2d_ball b;
    b.position = tu_v(0, 0);
    b.velocity = tu_v(vx, 0);
    b.radius = 0.2;
    return b;
}

static int asked_at_most_once(const posts *p)
{
    for (int k = 0; k < MAX_ENTRIES; k++)
        if (p->asked[k] > 1)
            return 0;
    return 1;
}

/* What a report callback received. */
typedef struct received {
    int calls, count;
    c2d_contact_record rec[MAX_ENTRIES];
} received;

static c2d_status keep_records(void *ctx, const c2d_contact_record *rec, int n)
{
    received *r = (received *)ctx;
    r->calls++;
    r->count = n;
    for (int k = 0; k < n && k < MAX_ENTRIES; k++)
        r->rec[k] = rec[k];
    return C2D_OK;
}

static c2d_status refuse_records(void *ctx, const c2d_contact_record *rec, int n)
{
    (void)ctx;
    (void)rec;
    (void)n;
    return C2D_ERR_NO_MEMORY;
}

/* A record is valid: a time in [0, 1], finite numbers, a unit normal, and an entry of the world
 * whose user value is the one reported. */
static int record_valid(const c2d_world *w, const c2d_contact_record *r)
{
    uintptr_t user;
    const c2d_sweep_contact *c = &r->contact;
    if (!(c->t >= 0 && c->t <= 1) || !isfinite(c->point.x) || !isfinite(c->point.y))
        return 0;
    if (!isfinite(r->position.x) || !isfinite(r->position.y) || !isfinite(r->velocity.x))
        return 0;
    if (fabs(hypot(c->normal.x, c->normal.y) - 1) > 1e-12)
        return 0;
    return c2d_world_get(w, r->id, NULL, &user) == C2D_OK && user == r->user;
}

/* Issue 22, item 2: more than 64 entries in reach and an accept callback that adds entries. The scope
 * query ran with room for 64, then with room for the first count, which the added entries outgrew:
 * C2D_ERR_CAPACITY, no documented outcome of a move. */
TEST(world_move_whose_filter_adds_entries_past_64_still_moves)
{
    posts p;
    ENSURE_OK(posts_new(&p, 70));
    p.extra = 30;
    c2d_world_filter f = {C2D_WORLD_ALL_BITS, C2D_WORLD_ALL_BITS, accept_and_add, &p};
    c2d_shape *mover;
    ENSURE_OK(c2d_rect_new(0, 0, 0.5, 0.5, 0, &mover));
    c2d_move_options o = c2d_move_options_default();
    o.response = C2D_RESPONSE_CROSS;
    c2d_move_result res;
    c2d_world_contact contacts[128];
    c2d_status st = c2d_world_move(p.world, mover, tu_v(150, 0), &f, NULL, NULL, &o, &res, contacts, 128);
    ENSURE_MSG(st == C2D_OK, "status %d", (int)st);
    ENSURE(asked_at_most_once(&p));
    ENSURE_MSG(res.count == 70, "%d contacts (the 70 posts there were when it began)", res.count);
    for (int k = 0; k < res.count; k++)
        ENSURE(contacts[k].contact.t >= 0 && contacts[k].contact.t <= 1);
    /* The same through a ball step. */
    memset(p.asked, 0, sizeof p.asked);
    p.added = 0;
    c2d_ball ball = ball_at(150);
    st = c2d_world_step_ball(p.world, &ball, 1.0, &f, NULL, NULL, &o, &res, contacts, 128);
    ENSURE_MSG(st == C2D_OK, "status %d", (int)st);
    ENSURE(asked_at_most_once(&p));
    c2d_shape_destroy(mover);
    posts_free(&p);
}

/* Issue 22, item 1, in C: a respond callback that adds entries on its first call. The report form
 * hands over every record once; each is valid and names a live entry with its user value. */
TEST(world_move_report_hands_every_record_over_once_whatever_callbacks_add)
{
    posts p;
    ENSURE_OK(posts_new(&p, 70));
    p.extra = 30;
    p.response = C2D_RESPONSE_CROSS;
    c2d_shape *mover;
    ENSURE_OK(c2d_rect_new(0, 0, 0.5, 0.5, 0, &mover));
    c2d_move_result res;
    static received got;
    memset(&got, 0, sizeof got);
    ENSURE_OK(c2d_world_move_report(p.world, mover, tu_v(150, 0), NULL, respond_and_add, &p, NULL, &res, keep_records,
                                    &got));
    ENSURE(got.calls == 1 && got.count == res.count);
    ENSURE(asked_at_most_once(&p));
    ENSURE_MSG(res.count >= 70, "%d records", res.count);
    for (int k = 0; k < got.count; k++) {
        ENSURE_MSG(record_valid(p.world, &got.rec[k]), "record %d of %d", k, got.count);
        ENSURE(k == 0 || got.rec[k].contact.t >= got.rec[k - 1].contact.t);
    }
    /* Now that nothing changes the world, the records form agrees bit for bit. */
    static c2d_contact_record again[MAX_ENTRIES];
    c2d_move_result res2;
    ENSURE_OK(c2d_world_move_records(p.world, mover, tu_v(150, 0), NULL, respond_and_add, &p, NULL, &res2, again,
                                     MAX_ENTRIES));
    static received got2;
    memset(&got2, 0, sizeof got2);
    ENSURE_OK(c2d_world_move_report(p.world, mover, tu_v(150, 0), NULL, respond_and_add, &p, NULL, &res, keep_records,
                                    &got2));
    ENSURE(res2.count == got2.count && res.count == got2.count);
    ENSURE(memcmp(again, got2.rec, (size_t)got2.count * sizeof *again) == 0);
    /* A ball step: the report's status is the call's, and a refused report leaves the ball alone. */
    c2d_ball ball = ball_at(150), start = ball;
    ENSURE(c2d_world_step_ball_report(p.world, &ball, 1.0, NULL, respond_and_add, &p, NULL, &res, refuse_records,
                                      NULL) == C2D_ERR_NO_MEMORY);
    ENSURE(memcmp(&ball, &start, sizeof ball) == 0);
    memset(&got, 0, sizeof got);
    ENSURE_OK(c2d_world_step_ball_report(p.world, &ball, 1.0, NULL, respond_and_add, &p, NULL, &res, keep_records,
                                         &got));
    ENSURE(got.calls == 1 && got.count == res.count && res.count > 0);
    for (int k = 0; k < got.count; k++)
        ENSURE(record_valid(p.world, &got.rec[k]));
    ENSURE(c2d_world_move_report(p.world, mover, tu_v(1, 0), NULL, NULL, NULL, NULL, &res, NULL, NULL) ==
           C2D_ERR_NULL);
    c2d_shape_destroy(mover);
    posts_free(&p);
}

/* The static-set report forms give the records form's answer, every record. */
TEST(static_set_report_forms_agree_with_the_records_forms)
{
    posts p;
    ENSURE_OK(posts_new(&p, 100));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)p.shapes, p.n, NULL, &set));
    c2d_shape *mover;
    ENSURE_OK(c2d_rect_new(0, 0, 0.5, 0.5, 0, &mover));
    c2d_move_options o = c2d_move_options_default();
    o.response = C2D_RESPONSE_CROSS;
    static c2d_contact_record rec[MAX_ENTRIES];
    static received got;
    c2d_move_result a, b;
    ENSURE_OK(c2d_static_set_move_records(set, mover, tu_v(250, 0), &o, &a, rec, MAX_ENTRIES));
    memset(&got, 0, sizeof got);
    ENSURE_OK(c2d_static_set_move_report(set, mover, tu_v(250, 0), &o, &b, keep_records, &got));
    ENSURE(a.count == 100 && b.count == a.count && got.count == a.count && got.calls == 1);
    ENSURE(memcmp(rec, got.rec, (size_t)a.count * sizeof *rec) == 0);
    c2d_ball b1 = ball_at(250), b2 = b1;
    ENSURE_OK(c2d_static_set_step_ball_records(set, &b1, 1.0, &o, &a, rec, MAX_ENTRIES));
    memset(&got, 0, sizeof got);
    ENSURE_OK(c2d_static_set_step_ball_report(set, &b2, 1.0, &o, &b, keep_records, &got));
    ENSURE(memcmp(&b1, &b2, sizeof b1) == 0 && a.count == got.count);
    ENSURE(memcmp(rec, got.rec, (size_t)a.count * sizeof *rec) == 0);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(mover);
    posts_free(&p);
}

/* Re-values every entry (user -> 500 - user) the first time it runs; then answers as asked. */
typedef struct revaluer {
    posts *p;
    int done;
    c2d_response response;
} revaluer;

static void revalue_all(revaluer *r)
{
    if (r->done)
        return;
    r->done = 1;
    for (int i = 0; i < r->p->n; i++) {
        uintptr_t u;
        if (c2d_world_get(r->p->world, r->p->ids[i], NULL, &u) == C2D_OK)
            c2d_world_set_user(r->p->world, r->p->ids[i], 500 - u);
    }
}

static int pair_revalue(void *ctx, c2d_world_id a, uintptr_t ua, c2d_world_id b, uintptr_t ub)
{
    (void)a, (void)ua, (void)b, (void)ub;
    revalue_all((revaluer *)ctx);
    return 1;
}

static c2d_response respond_revalue(void *ctx, c2d_world_id id, uintptr_t user)
{
    revaluer *r = (revaluer *)ctx;
    (void)id, (void)user;
    revalue_all(r);
    return r->response;
}

static int pair_before(const c2d_world_pair *x, const c2d_world_pair *y)
{
    if (x->user_a != y->user_a)
        return x->user_a < y->user_a;
    if (x->a != y->a)
        return x->a < y->a;
    if (x->user_b != y->user_b)
        return x->user_b < y->user_b;
    return x->b < y->b;
}

/* Issue 22, item 3: a pair filter that re-values entries. Pairs came back with the new values in the
 * old order. */
TEST(world_pairs_keep_the_world_order_when_the_pair_filter_revalues)
{
    posts p;
    memset(&p, 0, sizeof p);
    ENSURE_OK(c2d_world_new(&p.world));
    /* Overlapping posts: each meets its neighbours within 1.5. */
    for (int i = 0; i < 60; i++)
        ENSURE_OK(post_add(&p, 0.7 * i, 1.6, (uintptr_t)i));
    revaluer r = {&p, 0, C2D_RESPONSE_SLIDE};
    ENSURE_OK(c2d_world_set_pair_filter(p.world, pair_revalue, &r));
    static c2d_world_pair got[1024], fresh[1024];
    static c2d_contact contacts[1024];
    int n = 0, m = 0;
    ENSURE_OK(c2d_world_pairs(p.world, got, contacts, 1024, &n));
    ENSURE(r.done && n > 60);
    for (int k = 0; k < n; k++) {
        uintptr_t ua, ub;
        ENSURE_OK(c2d_world_get(p.world, got[k].a, NULL, &ua));
        ENSURE_OK(c2d_world_get(p.world, got[k].b, NULL, &ub));
        ENSURE(ua == got[k].user_a && ub == got[k].user_b);
        ENSURE_MSG(ua < ub || (ua == ub && got[k].a < got[k].b), "pair %d: a after b", k);
        ENSURE_MSG(k == 0 || pair_before(&got[k - 1], &got[k]), "pair %d out of order", k);
        /* The contact still goes from a to b. */
        c2d_shape *sa, *sb;
        c2d_contact c;
        ENSURE_OK(c2d_world_get(p.world, got[k].a, &sa, NULL));
        ENSURE_OK(c2d_world_get(p.world, got[k].b, &sb, NULL));
        ENSURE_OK(c2d_collide(sa, sb, &c));
        ENSURE(c.normal.x == contacts[k].normal.x && c.normal.y == contacts[k].normal.y);
    }
    /* The same pairs as a call that changes nothing. */
    ENSURE_OK(c2d_world_set_pair_filter(p.world, NULL, NULL));
    ENSURE_OK(c2d_world_pairs(p.world, fresh, NULL, 1024, &m));
    ENSURE(m == n);
    for (int k = 0; k < n; k++)
        ENSURE_MSG(fresh[k].a == got[k].a && fresh[k].b == got[k].b, "pair %d differs from a fresh call", k);
    posts_free(&p);
}

/* Issue 22, item 4: a move's contacts carried the user value an entry had before a callback
 * re-valued it, while a query under the same callback reports the current one. */
TEST(world_move_contacts_carry_the_user_value_callbacks_left)
{
    posts p;
    ENSURE_OK(posts_new(&p, 20));
    revaluer r = {&p, 0, C2D_RESPONSE_CROSS};
    c2d_shape *mover;
    ENSURE_OK(c2d_rect_new(0, 0, 0.5, 0.5, 0, &mover));
    c2d_move_result res;
    c2d_world_contact contacts[64];
    ENSURE_OK(c2d_world_move(p.world, mover, tu_v(50, 0), NULL, respond_revalue, &r, NULL, &res, contacts, 64));
    ENSURE(r.done && res.count == 20);
    for (int k = 0; k < res.count; k++) {
        uintptr_t u;
        ENSURE_OK(c2d_world_get(p.world, contacts[k].id, NULL, &u));
        ENSURE_MSG(u == contacts[k].user, "contact %d: user %lu, the entry's is %lu", k,
                   (unsigned long)contacts[k].user, (unsigned long)u);
    }
    /* And in the world's order: ranks follow the new values (500 - i falls as x grows). */
    for (int k = 1; k < res.count; k++)
        ENSURE(contacts[k].contact.index < contacts[k - 1].contact.index);
    c2d_shape_destroy(mover);
    posts_free(&p);
}

/* Issue 22, item 5: one rule for a list call given no array. c2d_shape_get_vertices answered C2D_OK
 * with the count, c2d_world_query_point C2D_ERR_CAPACITY. */
TEST(list_calls_asked_for_the_count_only_answer_ok_with_the_count)
{
    posts p;
    memset(&p, 0, sizeof p);
    ENSURE_OK(c2d_world_new(&p.world));
    for (int i = 0; i < 5; i++)
        ENSURE_OK(post_add(&p, 0.2 * i, 1.6, (uintptr_t)i));
    int n = -1;
    ENSURE_OK(c2d_world_query_point(p.world, tu_v(0.5, 0), NULL, NULL, 0, &n));
    ENSURE_MSG(n == 5, "%d", n);
    c2d_aabb box;
    box.min = tu_v(-10, -10);
    box.max = tu_v(10, 10);
    n = -1;
    ENSURE_OK(c2d_world_query_aabb(p.world, box, NULL, NULL, 0, &n));
    ENSURE(n == 5);
    n = -1;
    ENSURE_OK(c2d_world_query_shape(p.world, p.shapes[2], NULL, NULL, 0, &n));
    ENSURE(n == 5);
    n = -1;
    ENSURE_OK(c2d_world_raycast_all(p.world, tu_v(-5, 0), tu_v(1, 0), 20, NULL, NULL, 0, &n));
    ENSURE(n == 5);
    n = -1;
    ENSURE_OK(c2d_world_pairs(p.world, NULL, NULL, 0, &n));
    ENSURE(n == 10);
    n = -1;
    ENSURE_OK(c2d_shape_get_vertices(p.shapes[0], NULL, 0, &n));
    ENSURE(n == 4);
    n = -1;
    ENSURE_OK(c2d_shape_get_part_vertices(p.shapes[0], 0, NULL, 0, &n));
    ENSURE(n == 4);
    /* A real array too small is still C2D_ERR_CAPACITY, with the count, and nothing written. */
    c2d_world_hit one[1];
    memset(one, 0, sizeof one);
    ENSURE(c2d_world_query_point(p.world, tu_v(0.5, 0), NULL, one, 1, &n) == C2D_ERR_CAPACITY && n == 5);
    ENSURE(one[0].id == 0);
    c2d_vec2 v[2];
    ENSURE(c2d_shape_get_vertices(p.shapes[0], v, 2, &n) == C2D_ERR_CAPACITY && n == 4);
    posts_free(&p);
}
