/* cases.c - the shared cases of the cross-platform comparison, through the C library as a user links it
 * (spec/suites/40-windows.sh builds it against build/libcollide2d.so on Linux and against
 * build/windows/collide2d.dll for Windows, runs the second under Wine, and compares the outputs line by
 * line). Every query for every pair of kinds over a fixed scene, the seeds' worked examples, ball
 * trajectories through a static set and a world's queries, pairs and moves, one result per line, each
 * number as the 16 hex digits of its bits (written here, not by the C library's printf).
 *
 * Sections, as in spec/windows/cases.lua: "exact" lines involve only shapes at angle 0, "turned" lines
 * other angles too, whose cosine and sine the library computes itself (src/trig.c) with + - * / alone,
 * so both must agree bit for bit; they are counted apart to show where a difference would come from.
 * Public API only; the inputs use + - * / alone, which IEEE-754 rounds the same everywhere. */
#include "collide2d.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *section = "exact";
static char line[65536];
static size_t used;

static void put(const char *s)
{
    size_t n = strlen(s);
    if (used + n + 1 < sizeof line) {
        memcpy(line + used, s, n);
        used += n;
        line[used] = 0;
    }
}

static void begin(const char *label)
{
    used = 0;
    line[0] = 0;
    put(section);
    put(" ");
    put(label);
}

static void end(void)
{
    put("\n");
    fputs(line, stdout);
}

static void num(double x)
{
    static const char hex[] = "0123456789abcdef";
    char buf[18];
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    buf[0] = ' ';
    for (int i = 0; i < 16; i++)
        buf[1 + i] = hex[(b >> (60 - 4 * i)) & 15];
    buf[17] = 0;
    put(x != x ? " nan" : buf);
}

static void integer(long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, " %ld", v);
    put(buf);
}

static void vec(c2d_vec2 v)
{
    num(v.x);
    num(v.y);
}

static c2d_vec2 v2(double x, double y)
{
    c2d_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

/* Park-Miller, in 64-bit integers: the same stream on every platform, drawn into named variables in
 * order, never two in one expression: C leaves the order of a call's arguments and of an initializer's
 * elements to the compiler (gcc takes them last to first on x86-64, first to last on ARM64). */
static int64_t seed = 20240611;
static double uniform(double lo, double hi)
{
    seed = seed * 16807 % 2147483647;
    return lo + (hi - lo) * ((double)seed / 2147483647);
}

enum { CIRCLE, RECT, POLYGON, CAPSULE, SEGMENT, KINDS };
static const char *const kind_name[KINDS] = {"circle", "rect", "polygon", "capsule", "segment"};

/* A shape of the kind of size s around (x, y), turned by angle. */
static c2d_shape *make(int kind, double x, double y, double s, double angle)
{
    c2d_shape *shape = NULL;
    c2d_vec2 pts[5];
    switch (kind) {
    case CIRCLE:
        c2d_circle_new(x, y, s, &shape);
        break;
    case RECT:
        c2d_rect_new(x, y, 2 * s, 1.5 * s, angle, &shape);
        break;
    case POLYGON:
        pts[0] = v2(x - s, y - s * 0.5);
        pts[1] = v2(x + s * 0.25, y - s);
        pts[2] = v2(x + s, y + s * 0.125);
        pts[3] = v2(x + s * 0.125, y + s);
        pts[4] = v2(x - s * 0.75, y + s * 0.5);
        c2d_polygon_new(pts, 5, &shape);
        break;
    case CAPSULE:
        c2d_capsule_new(v2(x - s, y - s * 0.375), v2(x + s * 0.875, y + s * 0.25), s * 0.375, &shape);
        break;
    default:
        c2d_segment_new(v2(x - s, y + s * 0.625), v2(x + s * 0.75, y - s * 0.5), &shape);
        break;
    }
    if (shape && angle != 0 && kind != RECT)
        c2d_shape_set_angle(shape, angle);
    return shape;
}

static void contact(const c2d_contact *c)
{
    integer(c->count);
    if (c->count == 0)
        return;
    vec(c->normal);
    num(c->depth);
    for (int i = 0; i < c->count; i++) {
        vec(c->points[i]);
        num(c->point_depths[i]);
    }
}

static void toi(const c2d_toi *t)
{
    integer((long)t->state);
    num(t->t);
    vec(t->normal);
    vec(t->point);
    num(t->depth);
}

static void ray(const c2d_ray_hit *h)
{
    integer(h->hit);
    if (!h->hit)
        return;
    num(h->t);
    vec(h->point);
    vec(h->normal);
}

static void pair_queries(const char *sec, int turned)
{
    static const double off[5][2] = {{3.5, 0.25}, {1.9, 1.3}, {0.75, -0.5}, {0.125, 0.0625}, {-2.25, 1.75}};
    section = sec;
    for (int ka = 0; ka < KINDS; ka++)
        for (int kb = 0; kb < KINDS; kb++)
            for (int o = 0; o < 5; o++) {
                double aa = turned ? (ka * 0.7 + kb * 0.3 + o * 0.11 + 0.2) : 0;
                c2d_shape *a = make(ka, 0, 0, 1, aa), *b = make(kb, off[o][0], off[o][1], 0.8, -1.3 * aa);
                char label[64];
                snprintf(label, sizeof label, "%s-%s#%d", kind_name[ka], kind_name[kb], o + 1);
                begin(label);
                c2d_contact c;
                c2d_distance_result d;
                c2d_toi t;
                c2d_ray_hit h;
                c2d_aabb box;
                c2d_vec2 p, verts[8];
                double dist;
                int overlap, inside, n;
                c2d_overlap(a, b, &overlap);
                integer(overlap);
                c2d_collide(a, b, &c);
                contact(&c);
                c2d_distance(a, b, &d);
                num(d.distance);
                vec(d.point_a);
                vec(d.point_b);
                vec(d.normal);
                c2d_sweep(a, v2(-off[o][0] * 1.5, -off[o][1] * 0.5), b, v2(0.25, 0.125), &t);
                toi(&t);
                c2d_raycast(b, v2(-5, 0.3), v2(1, 0.05), 20, &h);
                ray(&h);
                c2d_closest_point(b, v2(0.2, -0.3), &p, &dist);
                vec(p);
                num(dist);
                c2d_contains_point(b, v2(off[o][0] * 0.5, off[o][1] * 0.5), &inside);
                integer(inside);
                c2d_shape_get_aabb(b, &box);
                vec(box.min);
                vec(box.max);
                c2d_shape_get_vertices(b, verts, 8, &n);
                for (int i = 0; i < n && i < 8; i++)
                    vec(verts[i]);
                end();
                c2d_shape_destroy(a);
                c2d_shape_destroy(b);
            }
}

/* The seeds' worked examples: 002 and 003 (unturned), then 000 and 001 (turned). */
static void seeds(void)
{
    c2d_shape *r, *s;
    c2d_contact c;
    c2d_distance_result d;
    section = "exact";
    c2d_rect_new(5, 5, 10, 10, 0, &r);
    c2d_rect_new(12.5, 2.5, 5, 5, 0, &s);
    c2d_collide(r, s, &c);
    begin("seed002:boxes");
    contact(&c);
    end();
    c2d_shape_destroy(s);
    static const double centres[][3] = {{10.5, 5, 1}, {5, -0.9, 1}, {10.7, 10.7, 1}, {10.75, 10.75, 1},
                                        {10.8, 10.8, 1}, {11, 5, 1}};
    for (int i = 0; i < 6; i++) {
        char label[32];
        snprintf(label, sizeof label, "seed003:circle%d", i + 1);
        c2d_circle_new(centres[i][0], centres[i][1], centres[i][2], &s);
        c2d_collide(r, s, &c);
        c2d_distance(r, s, &d);
        begin(label);
        contact(&c);
        num(d.distance);
        vec(d.point_a);
        vec(d.point_b);
        end();
        c2d_shape_destroy(s);
    }
    c2d_shape_destroy(r);

    section = "turned";
    double theta = 3.141592653589793 / 6;
    c2d_rect_new(10, 20, 4, 2, theta, &r);
    c2d_circle_new(12.598076211353316, 21.5, 1.25, &s);
    c2d_collide(r, s, &c);
    begin("seed000:face");
    contact(&c);
    end();
    c2d_shape_destroy(s);
    c2d_shape_destroy(r);
    c2d_rect_new(2.3056873, 3.7835491, 3, 2, 0.6981317007977318, &r);
    c2d_rect_new(-0.7520762, 4.8451843, 2, 1, 0.8726646259971648, &s);
    c2d_collide(r, s, &c);
    c2d_distance(r, s, &d);
    begin("seed001");
    contact(&c);
    num(d.distance);
    vec(d.normal);
    end();
    c2d_shape_destroy(s);
    c2d_shape_destroy(r);

    /* Quarter turns are not exact either: cos of the double nearest pi/2 is 6.1e-17, and glibc and
     * mingw-w64 (whose sincos uses the x87's 66-bit pi) answer it differently from the 14th bit on. */
    for (int q = 1; q <= 3; q++) {
        c2d_vec2 v[4];
        c2d_ray_hit h;
        int n;
        char label[32];
        snprintf(label, sizeof label, "quarter%d", q);
        c2d_rect_new(0, 0, 4, 2, q * (3.141592653589793 / 2), &r);
        c2d_circle_new(0.25, 2.5, 1, &s);
        c2d_shape_get_vertices(r, v, 4, &n);
        c2d_collide(r, s, &c);
        c2d_raycast(r, v2(-5, 0.5), v2(1, 0), 20, &h);
        begin(label);
        for (int i = 0; i < n && i < 4; i++)
            vec(v[i]);
        contact(&c);
        ray(&h);
        end();
        c2d_shape_destroy(s);
        c2d_shape_destroy(r);
    }
}

/* A ball through a wall of touching bricks, a polygon, a capsule, a segment and two blocks turned by
 * `angle`, 400 steps of 1/60 s; bricks are switched off one by one. */
static void ball(const char *sec, double angle)
{
    c2d_shape *shapes[80];
    int n = 0;
    section = sec;
    c2d_rect_new(400, 5, 800, 10, 0, &shapes[n++]);
    c2d_rect_new(400, 595, 800, 10, 0, &shapes[n++]);
    c2d_rect_new(5, 300, 10, 600, 0, &shapes[n++]);
    c2d_rect_new(795, 300, 10, 600, 0, &shapes[n++]);
    for (int row = 0; row < 5; row++)
        for (int col = 0; col < 12; col++)
            c2d_rect_new(125 + col * 50, 90 + row * 20, 50, 20, 0, &shapes[n++]);
    c2d_vec2 poly[5] = {{300, 400}, {360, 380}, {390, 430}, {330, 470}, {290, 450}};
    c2d_polygon_new(poly, 5, &shapes[n++]);
    c2d_capsule_new(v2(500, 300), v2(600, 340), 12, &shapes[n++]);
    c2d_segment_new(v2(150, 500), v2(250, 440), &shapes[n++]);
    c2d_rect_new(660, 435, 120, 30, angle, &shapes[n++]);
    c2d_rect_new(150, 330, 60, 60, angle * 0.5, &shapes[n++]);
    c2d_static_set *set;
    if (c2d_static_set_new((const c2d_shape *const *)shapes, n, NULL, &set) != C2D_OK) {
        begin("ball:set-failed");
        end();
        return;
    }
    c2d_ball b = {{400, 300}, {1500, -2100}, 6};
    for (int step = 1; step <= 400; step++) {
        c2d_move_result res;
        c2d_sweep_contact cs[16];
        char label[32];
        c2d_status st = c2d_static_set_step_ball(set, &b, 1.0 / 60, NULL, &res, cs, 16);
        snprintf(label, sizeof label, "ball:%d", step);
        begin(label);
        integer(st);
        vec(b.position);
        vec(b.velocity);
        vec(res.displacement);
        num(res.travelled);
        integer(res.count);
        for (int i = 0; i < res.count && i < 16; i++) {
            integer(cs[i].index);
            num(cs[i].t);
            vec(cs[i].point);
            vec(cs[i].normal);
            integer((long)cs[i].response);
            integer(cs[i].pushed_out);
        }
        end();
        if (step % 50 == 0)
            c2d_static_set_set_enabled(set, 4 + step / 50, 0);
    }
    c2d_static_set_destroy(set);
    for (int i = 0; i < n; i++)
        c2d_shape_destroy(shapes[i]);
}

/* A world of 300 shapes: box, point, shape and ray queries, pairs with contacts, moves and ball steps,
 * then again after moving a third of them. */
#define N_WORLD 300
static void world(const char *sec, double angle_scale)
{
    static c2d_shape *shapes[N_WORLD];
    static c2d_world_id ids[N_WORLD];
    static c2d_world_hit hits[N_WORLD];
    static c2d_world_pair pairs[N_WORLD * 8];
    static c2d_contact contacts[N_WORLD * 8];
    c2d_world *w;
    section = sec;
    if (c2d_world_new(&w) != C2D_OK)
        return;
    for (int i = 0; i < N_WORLD; i++) {
        double angle = angle_scale * uniform(-3, 3);
        double x = uniform(0, 400), y = uniform(0, 300), s = uniform(2, 12);
        shapes[i] = make(i % KINDS, x, y, s, angle);
        c2d_world_add(w, shapes[i], (uintptr_t)(i + 1), &ids[i]);
    }
    for (int pass = 0; pass < 2; pass++) {
        const char *tag = pass ? "world-moved" : "world";
        char label[64];
        int count;
        for (int q = 0; q < 20; q++) {
            double qx = uniform(-20, 380), qy = uniform(-20, 280);
            c2d_aabb box;
            box.min = v2(qx, qy);
            double bw = uniform(5, 60), bh = uniform(5, 60);
            box.max = v2(qx + bw, qy + bh);
            snprintf(label, sizeof label, "%s:queries:%d", tag, q + 1);
            begin(label);
            c2d_world_query_aabb(w, box, NULL, hits, N_WORLD, &count);
            integer(count);
            for (int i = 0; i < count; i++)
                integer((long)hits[i].user);
            c2d_world_query_point(w, box.min, NULL, hits, N_WORLD, &count);
            integer(count);
            for (int i = 0; i < count; i++)
                integer((long)hits[i].user);
            c2d_shape *probe = make(q % KINDS, qx, qy, 15, 0);
            c2d_world_query_shape(w, probe, NULL, hits, N_WORLD, &count);
            c2d_shape_destroy(probe);
            integer(count);
            for (int i = 0; i < count; i++)
                integer((long)hits[i].user);
            c2d_world_ray_hit rh;
            memset(&rh, 0, sizeof rh);
            double dx = uniform(-1, 1), dy = uniform(-1, 1);
            c2d_world_raycast(w, v2(qx, qy), v2(dx, dy), 500, NULL, &rh);
            integer(rh.ray.hit ? (long)rh.user : 0);
            ray(&rh.ray);
            end();
        }
        c2d_world_pairs(w, pairs, contacts, N_WORLD * 8, &count);
        snprintf(label, sizeof label, "%s:pairs", tag);
        begin(label);
        integer(count);
        end();
        for (int i = 0; i < count && i < N_WORLD * 8; i++) {
            snprintf(label, sizeof label, "%s:pair:%d", tag, i + 1);
            begin(label);
            integer((long)pairs[i].user_a);
            integer((long)pairs[i].user_b);
            contact(&contacts[i]);
            end();
        }
        c2d_shape *mover;
        c2d_circle_new(200, 150, 5, &mover);
        for (int m = 0; m < 10; m++) {
            c2d_move_result res;
            c2d_world_contact wc[16];
            snprintf(label, sizeof label, "%s:move:%d", tag, m + 1);
            begin(label);
            double mx = uniform(-80, 80), my = uniform(-80, 80);
            c2d_world_move(w, mover, v2(mx, my), NULL, NULL, NULL, NULL, &res, wc, 16);
            vec(res.displacement);
            integer(res.count);
            for (int i = 0; i < res.count && i < 16; i++) {
                integer((long)wc[i].user);
                num(wc[i].contact.t);
                vec(wc[i].contact.normal);
            }
            double bx = uniform(0, 400), by = uniform(0, 300), bvx = uniform(-900, 900), bvy = uniform(-900, 900);
            c2d_ball b = {{bx, by}, {bvx, bvy}, 4};
            c2d_world_step_ball(w, &b, 1.0 / 30, NULL, NULL, NULL, NULL, &res, wc, 16);
            vec(b.position);
            vec(b.velocity);
            integer(res.count);
            end();
        }
        c2d_shape_destroy(mover);
        for (int i = 0; i < N_WORLD; i += 3) {
            double sx = uniform(-30, 30), sy = uniform(-30, 30);
            c2d_shape_move(shapes[i], v2(sx, sy));
            c2d_world_update(w, ids[i]);
        }
    }
    c2d_world_destroy(w);
    for (int i = 0; i < N_WORLD; i++)
        c2d_shape_destroy(shapes[i]);
}

int main(void)
{
    section = "info";
    begin("version");
    integer(c2d_version());
    end();
    seeds();
    pair_queries("exact", 0);
    ball("exact", 0);
    world("exact", 0);
    pair_queries("turned", 1);
    ball("turned", 0.35);
    world("turned", 1);
    return 0;
}
