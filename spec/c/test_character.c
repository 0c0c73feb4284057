/* test_character.c - the character mover (c2d_static_set_move_character, issue 26 item 1): a box or a
 * capsule walking a random floor of slopes under the limit, as a chain and as a row of tiles, never
 * leaves the ground walking down, never creeps standing still and moves as far along the ground per
 * frame as its input asks (within 1%, along its contour: the path its position takes touching the
 * floor, over the floor's vertices too); on steeper ground it slides; it climbs steps under the step
 * height and is blocked by higher ones; it rides a platform moving at random velocities keeping its
 * offset to 1e-9, and one that also turns standing on the same point of it to 1e-12 (slid off once
 * the tilt passes max_slope, never left inside it); in a world, with the platform an entry or a shape
 * of the level, it moves as in the set bit for bit; it lands on a one-way platform, jumps up through it and drops through it when asked;
 * it stops at a ceiling and says so; it never ends inside a solid shape; bad input answers a status
 * and changes nothing. The frame is y-up (up (0, 1)) unless a test says otherwise. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

#define CH_MAX_SEGS 24
#define CH_PI 3.14159265358979323846

/* A character: its shape, its state and the options of every call. */
typedef struct ch_body {
    c2d_shape *s;
    c2d_character_state st;
    c2d_character_options o;
} ch_body;

/* Collects a call's records (count only, and the first few). */
typedef struct ch_kept {
    c2d_contact_record rec[16];
    int n;
} ch_kept;

static c2d_status ch_keep(void *ctx, const c2d_contact_record *records, int count)
{
    ch_kept *k = (ch_kept *)ctx;
    k->n = count;
    for (int i = 0; i < count && i < 16; i++)
        k->rec[i] = records[i];
    return C2D_OK;
}

static c2d_status ch_fail(void *ctx, const c2d_contact_record *records, int count)
{
    (void)ctx;
    (void)records;
    (void)count;
    return C2D_ERR_CAPACITY;
}

static void ch_init(ch_body *b, c2d_shape *s)
{
    b->s = s;
    memset(&b->st, 0, sizeof b->st);
    b->st.ground_index = -1;
    b->o = c2d_character_options_default();
}

/* One frame: the move asked for, then the shape placed where it ended. */
static c2d_status ch_step(const c2d_static_set *set, ch_body *b, c2d_vec2 d, c2d_character_result *r)
{
    c2d_status st = c2d_static_set_move_character(set, b->s, d, &b->o, &b->st, r, NULL, NULL);
    if (st != C2D_OK)
        return st;
    c2d_vec2 p;
    c2d_shape_get_position(b->s, &p);
    return c2d_shape_set_position(b->s, V(p.x + r->displacement.x, p.y + r->displacement.y));
}

/* How deep the shape is in the set's solid shapes: the length of the push-out. */
static double ch_depth(const c2d_static_set *set, const c2d_shape *s)
{
    c2d_vec2 d;
    if (c2d_static_set_push_out(set, s, &d) != C2D_OK)
        return 1e300;
    return sqrt(d.x * d.x + d.y * d.y);
}

/* A random floor from x = 0 of segs segments 1.5 to 4 long, each at a slope of at most max_deg degrees
 * either way (a flat one first), starting at height 0. */
static void ch_floor(c2d_vec2 *p, int segs, double max_deg)
{
    p[0] = V(0, 0);
    for (int k = 1; k <= segs; k++) {
        double len = c2d_test_uniform(1.5, 4.0);
        double deg = k == 1 ? 0.0 : c2d_test_uniform(-max_deg, max_deg);
        double a = deg * CH_PI / 180;
        p[k] = V(p[k - 1].x + len * cos(a), p[k - 1].y + len * sin(a));
    }
}

/* The floor as a set: 0 an open chain, 1 one convex quadrilateral per segment down to y = base. */
static c2d_status ch_floor_set(int how, const c2d_vec2 *p, int segs, double base, c2d_static_set **out)
{
    c2d_shape *shapes[CH_MAX_SEGS];
    int count = 0;
    c2d_status st = C2D_OK;
    if (how == 0) {
        st = c2d_chain_new(p, segs + 1, 0, &shapes[count++]);
    } else {
        for (int k = 0; k < segs && st == C2D_OK; k++) {
            c2d_vec2 q[4] = {{p[k].x, base}, {p[k + 1].x, base}, {p[k + 1].x, p[k + 1].y}, {p[k].x, p[k].y}};
            st = c2d_polygon_new(q, 4, &shapes[count++]);
        }
    }
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)shapes, count, NULL, out);
    for (int k = 0; k < count; k++)
        c2d_shape_destroy(shapes[k]);
    return st;
}

/* The character: 0 a 0.8 by 1.6 box, 1 a capsule of radius 0.4 and 1.6 tall, both standing at x. */
static c2d_status ch_shape(int kind, double x, double y, c2d_shape **out)
{
    if (kind == 0)
        return c2d_rect_new(x, y, 0.8, 1.6, 0, out);
    return c2d_capsule_new(V(x, y - 0.4), V(x, y + 0.4), 0.4, out);
}

/* The floor's height at x (on the segment under x). */
static double ch_floor_y(const c2d_vec2 *p, int segs, double x)
{
    for (int k = 0; k < segs; k++)
        if (x <= p[k + 1].x) {
            double u = (x - p[k].x) / (p[k + 1].x - p[k].x);
            return p[k].y + u * (p[k + 1].y - p[k].y);
        }
    return p[segs].y;
}

/* The height of the floor's top at x: its segment under x (the first and last hold on beyond). */
static double ch_top(const c2d_vec2 *p, int segs, double x)
{
    return ch_floor_y(p, segs, x);
}

/* Where the character's position stands at x when it rests on the floor: its contour. The box (kind
 * 0, 0.8 x 1.6) rests on the highest floor point under its bottom; the capsule (kind 1) on the disc of
 * radius 0.4 around its lower core end, whose centre rests on the floor grown by 0.4 (segment tops
 * offset along their normals and circles around the vertices). */
static double ch_contour(int kind, const c2d_vec2 *p, int segs, double x)
{
    if (kind == 0) {
        double y = fmax(ch_top(p, segs, x - 0.4), ch_top(p, segs, x + 0.4));
        for (int k = 0; k <= segs; k++)
            if (p[k].x >= x - 0.4 && p[k].x <= x + 0.4)
                y = fmax(y, p[k].y);
        return y + 0.8;
    }
    double r = 0.4, y = -INFINITY;
    for (int k = 0; k <= segs; k++)
        if (fabs(x - p[k].x) <= r)
            y = fmax(y, p[k].y + sqrt(r * r - (x - p[k].x) * (x - p[k].x)));
    for (int k = 0; k < segs; k++) {
        double dx = p[k + 1].x - p[k].x, dy = p[k + 1].y - p[k].y, l = sqrt(dx * dx + dy * dy);
        double nx = -dy / l, ny = dx / l; /* up the floor */
        double x0 = p[k].x + r * nx, x1 = p[k + 1].x + r * nx;
        if (x >= x0 && x <= x1)
            y = fmax(y, p[k].y + r * ny + (x - x0) * dy / dx);
    }
    return y + 0.4;
}

/* The length of the contour from x0 to x1 (chords of 256 pieces: within 0.1% of it across a bend). */
static double ch_contour_length(int kind, const c2d_vec2 *p, int segs, double x0, double x1)
{
    double s = 0, px = x0, py = ch_contour(kind, p, segs, x0);
    for (int k = 1; k <= 256; k++) {
        double x = x0 + (x1 - x0) * k / 256, y = ch_contour(kind, p, segs, x);
        s += sqrt((x - px) * (x - px) + (y - py) * (y - py));
        px = x;
        py = y;
    }
    return s;
}

/* Falls (gravity only) until grounded: 0 when it never landed in 400 frames. */
static int ch_land(const c2d_static_set *set, ch_body *b, double gravity)
{
    c2d_character_result r;
    for (int f = 0; f < 400; f++) {
        if (ch_step(set, b, V(0, -gravity * 4), &r) != C2D_OK)
            return 0;
        if (b->st.grounded)
            return 1;
    }
    return 0;
}

TEST(character_walks_random_slopes_on_the_ground_at_the_speed_asked_and_never_creeps)
{
    long cases = c2d_test_iterations(24);
    int checked = 0, frames = 0;
    double worst = 0;
    for (long it = 0; it < cases; it++) {
        int how = (int)(it % 2), kind = (int)((it / 2) % 2);
        int segs = 6 + (int)(c2d_test_rand() % 10);
        c2d_vec2 p[CH_MAX_SEGS + 1];
        ch_floor(p, segs, 40.0);
        double lowest = 0;
        for (int k = 0; k <= segs; k++)
            lowest = fmin(lowest, p[k].y);
        c2d_static_set *set;
        ENSURE_OK(ch_floor_set(how, p, segs, lowest - 3, &set));
        /* One case in three fast enough to cross a bend and the arc of a round bottom in one frame. */
        double v = c2d_test_uniform(0.03, it % 3 == 2 ? 1.0 : 0.2);
        double gravity = c2d_test_uniform(0.005, 0.05);
        c2d_shape *s;
        ENSURE_OK(ch_shape(kind, 1.0, 2.0, &s));
        ch_body b;
        ch_init(&b, s);
        /* Walking down 40 degrees at v takes v tan(40) down per frame: snap further than that. */
        b.o.snap_distance = 1.5 * v + gravity;
        ENSURE_MSG(ch_land(set, &b, gravity), "case %ld: never landed", it);
        /* Walk right to near the end, then back left to near the start: both ways down every slope. */
        for (int way = 0; way < 2; way++) {
            double dir = way == 0 ? 1.0 : -1.0;
            double stop = way == 0 ? p[segs].x - 1.0 : p[0].x + 1.0;
            for (int f = 0; f < 4000; f++) {
                c2d_vec2 at;
                c2d_shape_get_position(s, &at);
                if ((at.x - stop) * dir >= 0)
                    break;
                c2d_vec2 n0 = b.st.ground_normal;
                c2d_character_result r;
                ch_kept kept;
                ENSURE_OK(c2d_static_set_move_character(set, s, V(dir * v, -gravity), &b.o, &b.st, &r, ch_keep, &kept));
                ENSURE_OK(c2d_shape_set_position(s, V(at.x + r.displacement.x, at.y + r.displacement.y)));
                /* The path the records give (straight between them, for the capsule around the point of the
                 * ground two touch in turn, then the step down) never goes below the contour: never into
                 * the floor. */
                ENSURE(kept.n <= 16);
                c2d_vec2 walk_end = V(at.x + r.displacement.x - r.snap.x, at.y + r.displacement.y - r.snap.y);
                for (int k = 0; k <= kept.n; k++) {
                    /* In the order met: t, a fraction of the walk, never goes back. */
                    if (k < kept.n)
                        ENSURE_MSG(kept.rec[k].contact.t >= (k > 0 ? kept.rec[k - 1].contact.t : 0.0) &&
                                       kept.rec[k].contact.t <= 1.0,
                                   "case %ld frame %d: record %d at t %.17g", it, f, k, kept.rec[k].contact.t);
                    c2d_vec2 a0 = k == 0 ? at : kept.rec[k - 1].position;
                    c2d_vec2 a1 = k == kept.n ? walk_end : kept.rec[k].position;
                    int rolls = kind == 1 && k > 0 && k < kept.n &&
                                tu_len(tu_sub(kept.rec[k - 1].contact.point, kept.rec[k].contact.point)) <= 1e-9;
                    for (int q = 0; q <= 16; q++) {
                        c2d_vec2 x;
                        if (rolls) {
                            c2d_vec2 m0 = kept.rec[k - 1].contact.normal, m1 = kept.rec[k].contact.normal;
                            double a = atan2(m0.x * m1.y - m0.y * m1.x, tu_dot(m0, m1)) * q / 16;
                            c2d_vec2 nq = V(m0.x * cos(a) - m0.y * sin(a), m0.x * sin(a) + m0.y * cos(a));
                            x = tu_add(a0, tu_scale(tu_sub(nq, m0), 0.4));
                        } else {
                            x = tu_add(a0, tu_scale(tu_sub(a1, a0), q / 16.0));
                        }
                        ENSURE_MSG(x.y >= ch_contour(kind, p, segs, x.x) - 1e-9,
                                   "case %ld frame %d: the path goes %.3g into the floor at x %.17g", it, f,
                                   ch_contour(kind, p, segs, x.x) - x.y, x.x);
                    }
                }
                frames++;
                ENSURE_MSG(b.st.grounded, "case %ld (%s, %s) frame %d way %d: left the ground at x %.17g (flags %d)",
                           it, how ? "tiles" : "chain", kind ? "capsule" : "box", f, way, at.x, r.flags);
                ENSURE_MSG(ch_depth(set, s) <= 1e-9, "case %ld: inside the floor at x %.17g", it, at.x);
                ENSURE_MSG(!(r.flags & (C2D_CHARACTER_WALL | C2D_CHARACTER_CEILING)), "case %ld: flags %d", it,
                           r.flags);
                /* A step down is straight down (up is (0, 1)), and only a step down has one. */
                ENSURE_MSG((r.flags & C2D_CHARACTER_SNAPPED) ? (r.snap.x == 0 && r.snap.y < 0)
                                                             : (r.snap.x == 0 && r.snap.y == 0),
                           "case %ld frame %d: flags %d, snap (%.17g, %.17g)", it, f, r.flags, r.snap.x, r.snap.y);
                /* Along its contour (where it stands touching the floor), bends and all: v per frame. */
                c2d_vec2 now;
                c2d_shape_get_position(s, &now);
                double along = ch_contour_length(kind, p, segs, at.x, now.x);
                double off = now.y - ch_contour(kind, p, segs, now.x);
                worst = fmax(worst, fabs(along - v) / v);
                ENSURE_MSG(fabs(along - v) <= 0.01 * v && fabs(off) <= 1e-9,
                           "case %ld (%s, %s) frame %d way %d: moved %.17g along the ground, asked %.17g, %.3g off it",
                           it, how ? "tiles" : "chain", kind ? "capsule" : "box", f, way, along, v, off);
                /* On one stretch of ground (the same normal before and after, no step down): v along it. */
                if (n0.x == b.st.ground_normal.x && n0.y == b.st.ground_normal.y && !(r.flags & C2D_CHARACTER_SNAPPED)) {
                    double moved = sqrt(r.displacement.x * r.displacement.x + r.displacement.y * r.displacement.y);
                    ENSURE_MSG(fabs(moved - v) <= 0.01 * v, "case %ld frame %d: moved %.17g along the ground, asked %.17g",
                               it, f, moved, v);
                    ENSURE_MSG(r.displacement.x * dir > 0, "case %ld frame %d: walked the wrong way", it, f);
                    checked++;
                }
            }
        }
        /* Standing still anywhere on it: not a hair of creep in 60 frames. */
        for (int spot = 0; spot < 3; spot++) {
            double x = c2d_test_uniform(p[0].x + 1.0, p[segs].x - 1.0);
            c2d_shape_set_position(s, V(x, ch_floor_y(p, segs, x) + 2.5));
            b.st.grounded = 0;
            b.st.ground_index = -1;
            ENSURE_MSG(ch_land(set, &b, gravity), "case %ld: never landed at x %.17g", it, x);
            c2d_vec2 rest, now;
            c2d_shape_get_position(s, &rest);
            for (int f = 0; f < 60; f++) {
                c2d_character_result r;
                ENSURE_OK(ch_step(set, &b, V(0, -gravity), &r));
                ENSURE(b.st.grounded);
            }
            c2d_shape_get_position(s, &now);
            ENSURE_MSG(now.x == rest.x && now.y == rest.y, "case %ld: crept from (%.17g, %.17g) to (%.17g, %.17g)", it,
                       rest.x, rest.y, now.x, now.y);
        }
        c2d_shape_destroy(s);
        c2d_static_set_destroy(set);
    }
    /* Most frames are on one stretch of ground: the speed check is not vacuous. */
    ENSURE_MSG(checked > frames / 2, "speed checked on %d of %d frames only", checked, frames);
    printf("character walk: %d frames, speed along the ground off by %.3g%% at worst\n", frames, 100 * worst);
}

TEST(character_slides_down_ground_steeper_than_the_limit)
{
    long cases = c2d_test_iterations(20);
    for (long it = 0; it < cases; it++) {
        double deg = c2d_test_uniform(55.0, 75.0), a = deg * CH_PI / 180;
        /* A slope rising to the right from (0, 0), 20 long, as a triangle under it. */
        c2d_vec2 q[3] = {{0, 0}, {20 * cos(a), 0}, {20 * cos(a), 20 * sin(a)}};
        c2d_shape *ramp, *s;
        ENSURE_OK(c2d_polygon_new(q, 3, &ramp));
        c2d_static_set *set;
        const c2d_shape *arr[1] = {ramp};
        ENSURE_OK(c2d_static_set_new(arr, 1, NULL, &set));
        int kind = (int)(it % 2);
        /* Just above the slope's middle, its lower right corner (or round bottom) over the ground. */
        double x = 15 * cos(a) - 0.4;
        ENSURE_OK(ch_shape(kind, x, 15 * sin(a) + 0.85, &s));
        ch_body b;
        ch_init(&b, s);
        b.o.snap_distance = 0.5;
        double gravity = 0.02, vy = 0;
        c2d_vec2 start;
        c2d_character_result r;
        int steep = 0;
        for (int f = 0; f < 100; f++) {
            vy = fmax(vy - gravity, -0.1);
            ENSURE_OK(ch_step(set, &b, V(0, vy), &r));
            ENSURE_MSG(!b.st.grounded, "case %ld (%.3g degrees): stands on it at frame %d", it, deg, f);
            ENSURE_MSG(ch_depth(set, s) <= 1e-9, "case %ld: inside the ramp", it);
            steep += (r.flags & C2D_CHARACTER_STEEP) != 0;
            if (f == 20)
                c2d_shape_get_position(s, &start);
        }
        c2d_vec2 end;
        c2d_shape_get_position(s, &end);
        /* Down the slope, along it: as far to the left as down over the tangent. */
        ENSURE_MSG(end.x < start.x - 0.5 && fabs((start.y - end.y) / (start.x - end.x) - tan(a)) <= 1e-6,
                   "case %ld (%.3g degrees): slid from (%.3g, %.3g) to (%.3g, %.3g)",
                   it, deg, start.x, start.y, end.x, end.y);
        ENSURE_MSG(steep > 90, "case %ld: steep reported %d times of 100", it, steep);
        c2d_shape_destroy(s);
        c2d_shape_destroy(ramp);
        c2d_static_set_destroy(set);
    }
}

TEST(character_climbs_steps_under_the_step_height_and_is_blocked_by_higher_ones)
{
    long cases = c2d_test_iterations(40);
    for (long it = 0; it < cases; it++) {
        int kind = (int)(it % 2), climb = (int)((it / 2) % 2);
        double step_height = c2d_test_uniform(0.2, 0.6);
        double h = climb ? step_height * c2d_test_uniform(0.1, 0.9) : step_height * c2d_test_uniform(1.1, 2.0);
        /* A floor, top y = 0, and a block from x = 5 rising h above it. */
        c2d_shape *floor_s, *block, *s;
        ENSURE_OK(c2d_rect_new(0, -1, 40, 2, 0, &floor_s));
        ENSURE_OK(c2d_rect_new(10, h - 2.5, 10, 5, 0, &block));
        const c2d_shape *arr[2] = {floor_s, block};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(arr, 2, NULL, &set));
        ENSURE_OK(ch_shape(kind, 2.0, 1.0, &s));
        ch_body b;
        ch_init(&b, s);
        b.o.step_height = step_height;
        b.o.snap_distance = 0.2;
        ENSURE(ch_land(set, &b, 0.02));
        int stepped = 0, walls = 0;
        for (int f = 0; f < 120; f++) {
            c2d_character_result r;
            ENSURE_OK(ch_step(set, &b, V(0.1, -0.02), &r));
            ENSURE_MSG(ch_depth(set, s) <= 1e-9, "case %ld: inside", it);
            stepped += (r.flags & C2D_CHARACTER_STEPPED) != 0;
            walls += (r.flags & C2D_CHARACTER_WALL) != 0;
        }
        c2d_vec2 at;
        c2d_shape_get_position(s, &at);
        double bottom = kind == 0 ? at.y - 0.8 : at.y - 0.8;
        if (climb) {
            ENSURE_MSG(at.x > 6.5 && fabs(bottom - h) <= 1e-9 && b.st.grounded && b.st.ground_index == 1,
                       "case %ld (%s): step %.17g under %.17g not climbed: at (%.17g, %.17g), ground %d", it,
                       kind ? "capsule" : "box", h, step_height, at.x, at.y, b.st.ground_index);
            /* A capsule's round bottom may walk up a low step's corner as up a slope, without a step. */
            ENSURE_MSG(stepped >= 1 || kind == 1, "case %ld: climbed without a step reported", it);
        } else {
            ENSURE_MSG(at.x < 5.0 && fabs(bottom) <= 1e-9 && b.st.ground_index == 0,
                       "case %ld (%s): step %.17g over %.17g climbed: at (%.17g, %.17g)", it, kind ? "capsule" : "box",
                       h, step_height, at.x, at.y);
            ENSURE_MSG(stepped == 0 && walls > 50, "case %ld: stepped %d, walls %d", it, stepped, walls);
        }
        c2d_shape_destroy(s);
        c2d_shape_destroy(block);
        c2d_shape_destroy(floor_s);
        c2d_static_set_destroy(set);
    }
}

TEST(character_rides_a_platform_at_random_velocities_keeping_its_offset)
{
    long cases = c2d_test_iterations(12);
    for (long it = 0; it < cases; it++) {
        int kind = (int)(it % 2);
        c2d_shape *plat, *s;
        ENSURE_OK(c2d_rect_new(0, 0, 6, 1, 0, &plat));
        const c2d_shape *arr[1] = {plat};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(arr, 1, NULL, &set));
        ENSURE_OK(c2d_static_set_set_user(set, 0, 77));
        double x0 = c2d_test_uniform(-2.0, 2.0);
        ENSURE_OK(ch_shape(kind, x0, 2.0, &s));
        ch_body b;
        ch_init(&b, s);
        b.o.snap_distance = 0.1;
        ENSURE(ch_land(set, &b, 0.02));
        c2d_vec2 pp, cp;
        ENSURE_OK(c2d_static_set_get_transform(set, 0, &pp, NULL));
        c2d_shape_get_position(s, &cp);
        c2d_vec2 offset = V(cp.x - pp.x, cp.y - pp.y);
        for (int f = 0; f < 300; f++) {
            double vx = c2d_test_uniform(-0.3, 0.3);
            double vy = c2d_test_uniform(-0.3, 0.3);
            ENSURE_OK(c2d_static_set_set_velocity(set, 0, V(vx, vy)));
            c2d_character_result r;
            ENSURE_OK(ch_step(set, &b, V(0, -0.02), &r));
            ENSURE_OK(c2d_static_set_advance(set, 1.0));
            ENSURE_OK(c2d_static_set_get_transform(set, 0, &pp, NULL));
            c2d_shape_get_position(s, &cp);
            ENSURE_MSG(fabs(cp.x - pp.x - offset.x) <= 1e-9 && fabs(cp.y - pp.y - offset.y) <= 1e-9,
                       "case %ld frame %d: offset (%.17g, %.17g), was (%.17g, %.17g)", it, f, cp.x - pp.x,
                       cp.y - pp.y, offset.x, offset.y);
            ENSURE_MSG(b.st.grounded && b.st.ground_index == 0 && b.st.ground_user == 77, "case %ld frame %d: off it", it, f);
            ENSURE(b.st.ground_velocity.x == vx && b.st.ground_velocity.y == vy);
        }
        c2d_shape_destroy(s);
        c2d_shape_destroy(plat);
        c2d_static_set_destroy(set);
    }
}

/* The coordinates of the world point x in the own frame of the set's shape i, as it stands. */
static c2d_vec2 ch_local(const c2d_static_set *set, int i, c2d_vec2 x)
{
    c2d_vec2 pos;
    double a;
    c2d_static_set_get_transform(set, i, &pos, &a);
    double s = sin(a), c = cos(a), dx = x.x - pos.x, dy = x.y - pos.y;
    return V(c * dx + s * dy, -s * dx + c * dy);
}

/* Where the set's shape i's pivot (pivot, in its own frame) stands now. */
static c2d_vec2 ch_pivot(const c2d_static_set *set, int i, c2d_vec2 pivot)
{
    c2d_vec2 pos;
    double a;
    c2d_static_set_get_transform(set, i, &pos, &a);
    double s = sin(a), c = cos(a);
    return V(pos.x + c * pivot.x - s * pivot.y, pos.y + s * pivot.x + c * pivot.y);
}

/* A rider standing (gravity only) on a platform that moves and turns at random, its tilt kept under
 * max_slope, stands on the same point of it frame after frame: the point where it touches the
 * platform, in the platform's own coordinates, stays where it was to 1e-12 (a few units of the
 * rounding of coordinates of about 10; the ride itself is exact, and 300 frames of rounding walk
 * 1e-14 away). A capsule stands on its round bottom whatever the tilt, a box on its corner uphill (the
 * tilt kept one way, at least 0.05: through flat, it would step onto its other corner). It never
 * ends inside the platform, and the ground's velocity is that of the platform's surface there. */
TEST(character_rides_a_turning_platform_standing_on_the_same_point_of_it)
{
    long cases = c2d_test_iterations(12);
    double worst = 0;
    for (long it = 0; it < cases; it++) {
        int kind = (int)(it % 2);
        double half = c2d_test_uniform(1.5, 3.5);
        double thick = c2d_test_uniform(0.3, 1.0);
        double sign = it % 4 < 2 ? 1.0 : -1.0;
        double a = kind == 0 ? sign * c2d_test_uniform(0.05, 0.3) : c2d_test_uniform(-0.3, 0.3);
        double px = c2d_test_uniform(-1.2 * half, 1.2 * half);
        double py = c2d_test_uniform(-thick, thick);
        c2d_vec2 pivot = V(px, py);
        c2d_shape *plat, *s;
        ENSURE_OK(c2d_rect_new(0, 0, 2 * half, thick, a, &plat));
        const c2d_shape *arr[1] = {plat};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(arr, 1, NULL, &set));
        double x0 = c2d_test_uniform(-half + 0.8, half - 0.8);
        ENSURE_OK(ch_shape(kind, x0, 4.0, &s));
        ch_body b;
        ch_init(&b, s);
        b.o.snap_distance = 0.1;
        ENSURE(ch_land(set, &b, 0.02));
        ENSURE(b.st.ground_index == 0);
        c2d_vec2 at = ch_local(set, 0, b.st.ground_point);
        for (int f = 0; f < 300; f++) {
            double vx = c2d_test_uniform(-0.3, 0.3);
            double vy = c2d_test_uniform(-0.3, 0.3);
            double w = c2d_test_uniform(-0.04, 0.04);
            double lo = kind == 0 ? (sign > 0 ? 0.05 : -0.5) : -0.5, hi = kind == 0 ? (sign > 0 ? 0.5 : -0.05) : 0.5;
            if (!(a + w >= lo && a + w <= hi))
                w = -w;
            a += w;
            c2d_motion m;
            memset(&m, 0, sizeof m);
            m.velocity = V(vx, vy);
            m.angular_velocity = w;
            m.pivot = pivot;
            ENSURE_OK(c2d_static_set_set_motion(set, 0, &m));
            c2d_vec2 c = ch_pivot(set, 0, pivot);
            c2d_character_result r;
            ENSURE_OK(ch_step(set, &b, V(0, -0.02), &r));
            ENSURE_OK(c2d_static_set_advance(set, 1.0));
            ENSURE_MSG(b.st.grounded && b.st.ground_index == 0 && r.count == 0,
                       "case %ld frame %d: grounded %d on %d, %d contacts", it, f, b.st.grounded, b.st.ground_index,
                       r.count);
            c2d_vec2 now = ch_local(set, 0, b.st.ground_point);
            double drift = fmax(fabs(now.x - at.x), fabs(now.y - at.y));
            worst = fmax(worst, drift);
            ENSURE_MSG(drift <= 1e-12, "case %ld frame %d: stands at (%.17g, %.17g) of the platform, was (%.17g, %.17g)",
                       it, f, now.x, now.y, at.x, at.y);
            ENSURE_MSG(ch_depth(set, s) <= 1e-9, "case %ld frame %d: %g inside", it, f, ch_depth(set, s));
            /* v + w x r, r from where the pivot is now (moved by v) to the point. */
            c2d_vec2 gp = b.st.ground_point, rr = V(gp.x - c.x - vx, gp.y - c.y - vy);
            ENSURE_MSG(fabs(b.st.ground_velocity.x - (vx - w * rr.y)) <= 1e-12 &&
                           fabs(b.st.ground_velocity.y - (vy + w * rr.x)) <= 1e-12,
                       "case %ld frame %d: ground velocity (%.17g, %.17g)", it, f, b.st.ground_velocity.x,
                       b.st.ground_velocity.y);
        }
        c2d_shape_destroy(s);
        c2d_shape_destroy(plat);
        c2d_static_set_destroy(set);
    }
    printf("  worst drift of the point stood on, in the platform's frame: %.3g\n", worst);
}

/* A case the test above met (at C2D_TEST_SCALE=20): a capsule riding a platform that turns by a hair
 * (7e-6 rad) while it moves. The turning sweep called the two closing, at a rate of rounding (a few
 * ulps of their shared velocity) against a threshold scaled by the turn alone, and the ride ended in
 * contacts and the engine's carry instead of riding. */
TEST(character_rides_a_platform_turning_by_a_hair_without_a_contact)
{
    c2d_shape *plat, *s;
    ENSURE_OK(c2d_rect_new(0, 0, 2 * 2.672141460876055, 0.54639755990216465, 0, &plat));
    const c2d_shape *arr[1] = {plat};
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new(arr, 1, NULL, &set));
    ENSURE_OK(c2d_static_set_set_transform(set, 0, V(-2.0289489176115598, -0.74251050154577958), -0.19633647397923279));
    c2d_motion m;
    memset(&m, 0, sizeof m);
    m.velocity = V(-0.25072503470175383, 0.27717723525340826);
    m.angular_velocity = 6.8164591925448659e-06;
    m.pivot = V(-0.95351128188723733, 0.19681579038913732);
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &m));
    ENSURE_OK(ch_shape(1, -2.1785077198635445, 0.37362230207530961, &s));
    ch_body b;
    ch_init(&b, s);
    b.o.snap_distance = 0.1;
    b.st.grounded = 1;
    b.st.ground_index = 0;
    b.st.ground_normal = V(0.19507750620558967, 0.98078782953940047);
    ENSURE(ch_depth(set, s) <= 1e-9);
    c2d_character_result r;
    ENSURE_OK(ch_step(set, &b, V(0, -0.02), &r));
    ENSURE_MSG(r.count == 0 && b.st.grounded && b.st.ground_index == 0, "%d contacts, grounded %d", r.count,
               b.st.grounded);
    c2d_shape_destroy(s);
    c2d_shape_destroy(plat);
    c2d_static_set_destroy(set);
}

/* On a platform that keeps turning one way, the character stands while the tilt is walkable, then
 * slides off once it passes max_slope, falls to the floor below, and may be swept by the platform as it
 * goes round: whatever happens, every frame ends with the character outside every shape (push-out at
 * most 1e-9), the platform's included. */
TEST(character_on_a_platform_turning_past_the_limit_slides_off_and_never_ends_inside)
{
    long cases = c2d_test_iterations(16);
    for (long it = 0; it < cases; it++) {
        int kind = (int)(it % 2);
        double half = c2d_test_uniform(1.5, 3.0);
        double w = c2d_test_uniform(0.01, 0.05);
        if (it % 4 >= 2)
            w = -w;
        double px = c2d_test_uniform(-0.5 * half, 0.5 * half);
        c2d_shape *plat, *floor_s, *wall, *s;
        ENSURE_OK(c2d_rect_new(0, 0, 2 * half, 0.5, 0, &plat));
        /* The floor and the wall beyond the platform's reach, with room for the character between:
         * the platform may sweep it along, never crush it. */
        ENSURE_OK(c2d_rect_new(0, -1.5 * half - 3.0, 40, 1, 0, &floor_s));
        ENSURE_OK(c2d_rect_new(2 * half + 2.5, -2, 1, 6 * half, 0, &wall));
        const c2d_shape *arr[3] = {plat, floor_s, wall};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(arr, 3, NULL, &set));
        ENSURE_OK(ch_shape(kind, c2d_test_uniform(-half + 0.6, half - 0.6), 2.0, &s));
        ch_body b;
        ch_init(&b, s);
        b.o.snap_distance = 0.1;
        ENSURE(ch_land(set, &b, 0.02));
        c2d_motion m;
        memset(&m, 0, sizeof m);
        m.angular_velocity = w;
        m.pivot = V(px, 0);
        ENSURE_OK(c2d_static_set_set_motion(set, 0, &m));
        double vy = 0, angle = 0;
        int slid = 0;
        for (int f = 0; f < 250; f++) {
            double walk = f >= 40 && f % 50 < 20 ? c2d_test_uniform(-0.05, 0.05) : 0.0;
            vy = b.st.grounded ? -0.02 : fmax(vy - 0.02, -0.4);
            c2d_character_result r;
            ENSURE_OK(ch_step(set, &b, V(walk, vy), &r));
            ENSURE_OK(c2d_static_set_advance(set, 1.0));
            angle += w;
            double depth = ch_depth(set, s);
            ENSURE_MSG(depth <= 1e-9, "case %ld frame %d: %g inside (platform at %.3f rad, flags %d)", it, f, depth,
                       angle, r.flags);
            if (fabs(angle) > b.o.max_slope + 0.05 && !(b.st.grounded && b.st.ground_index == 0))
                slid = 1;
            /* While the tilt is walkable, it stands on the platform. */
            if (fabs(angle) < b.o.max_slope - 0.05 && f < 40)
                ENSURE_MSG(b.st.grounded && b.st.ground_index == 0, "case %ld frame %d: off the platform at %.3f rad",
                           it, f, angle);
        }
        ENSURE_MSG(slid, "case %ld: never left the platform", it);
        c2d_shape_destroy(s);
        c2d_shape_destroy(plat);
        c2d_shape_destroy(floor_s);
        c2d_shape_destroy(wall);
        c2d_static_set_destroy(set);
    }
}

TEST(character_lands_on_a_one_way_platform_jumps_up_through_it_and_drops_through_it)
{
    for (int kind = 0; kind < 2; kind++) {
        c2d_shape *floor_s, *ledge, *s;
        ENSURE_OK(c2d_rect_new(0, -1, 40, 2, 0, &floor_s));
        ENSURE_OK(c2d_rect_new(0, 4.75, 8, 0.5, 0, &ledge)); /* top at y = 5 */
        const c2d_shape *arr[2] = {floor_s, ledge};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(arr, 2, NULL, &set));
        ENSURE_OK(c2d_static_set_set_one_way(set, 1, V(0, 1)));
        ENSURE_OK(ch_shape(kind, 0, 0.8, &s));
        ch_body b;
        ch_init(&b, s);
        b.o.snap_distance = 0.1;
        ENSURE(ch_land(set, &b, 0.02));
        ENSURE(b.st.ground_index == 0);
        /* A jump straight up from the floor: up through the ledge, and down onto it. */
        double vy = 0.5;
        int landed_flag = 0, f;
        c2d_character_result r;
        for (f = 0; f < 200; f++) {
            vy -= 0.02;
            ENSURE_OK(ch_step(set, &b, V(0, vy), &r));
            ENSURE_MSG(!(r.flags & C2D_CHARACTER_CEILING), "kind %d: the ledge's underside was a ceiling", kind);
            if (b.st.grounded && f > 0)
                break;
        }
        landed_flag = (r.flags & C2D_CHARACTER_LANDED) != 0;
        c2d_vec2 at;
        c2d_shape_get_position(s, &at);
        ENSURE_MSG(b.st.grounded && b.st.ground_index == 1 && fabs(at.y - 0.8 - 5) <= 1e-9 && landed_flag,
                   "kind %d: not on the ledge after the jump: at y %.17g, ground %d", kind, at.y, b.st.ground_index);
        /* Standing: stays on it. Then a drop: through it onto the floor. */
        for (f = 0; f < 30; f++)
            ENSURE_OK(ch_step(set, &b, V(0, -0.02), &r));
        ENSURE(b.st.grounded && b.st.ground_index == 1);
        b.o.drop_through = 1;
        ENSURE_OK(ch_step(set, &b, V(0, -0.02), &r));
        b.o.drop_through = 0;
        ENSURE_MSG(!b.st.grounded, "kind %d: still grounded after the drop", kind);
        vy = -0.02;
        for (f = 0; f < 300 && !b.st.grounded; f++) {
            vy -= 0.02;
            ENSURE_OK(ch_step(set, &b, V(0, vy), &r));
        }
        c2d_shape_get_position(s, &at);
        ENSURE_MSG(b.st.grounded && b.st.ground_index == 0 && fabs(at.y - 0.8) <= 1e-9,
                   "kind %d: did not drop through onto the floor: at y %.17g, ground %d", kind, at.y, b.st.ground_index);
        c2d_shape_destroy(s);
        c2d_shape_destroy(ledge);
        c2d_shape_destroy(floor_s);
        c2d_static_set_destroy(set);
    }
}

TEST(character_stops_at_a_ceiling_and_reports_it)
{
    for (int kind = 0; kind < 2; kind++) {
        c2d_shape *floor_s, *roof, *s;
        ENSURE_OK(c2d_rect_new(0, -1, 40, 2, 0, &floor_s));
        ENSURE_OK(c2d_rect_new(0, 3.5, 40, 1, 0, &roof)); /* underside at y = 3 */
        const c2d_shape *arr[2] = {floor_s, roof};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(arr, 2, NULL, &set));
        ENSURE_OK(ch_shape(kind, 0, 0.8, &s));
        ch_body b;
        ch_init(&b, s);
        ENSURE(ch_land(set, &b, 0.02));
        c2d_character_result r;
        ch_kept k;
        k.n = -1;
        ENSURE_OK(c2d_static_set_move_character(set, s, V(0.3, 2.0), &b.o, &b.st, &r, ch_keep, &k));
        ENSURE_MSG(r.flags & C2D_CHARACTER_CEILING, "kind %d: flags %d", kind, r.flags);
        ENSURE(!b.st.grounded);
        ENSURE(k.n == r.count && k.n >= 1);
        ENSURE_NEAR(k.rec[0].contact.normal.y, -1.0, 1e-12);
        ENSURE_NEAR(r.displacement.y, 3.0 - 1.6, 1e-9); /* its top at the underside */
        ENSURE_NEAR(r.displacement.x, 0.3, 1e-9);       /* slid along it */
        c2d_shape_destroy(s);
        c2d_shape_destroy(roof);
        c2d_shape_destroy(floor_s);
        c2d_static_set_destroy(set);
    }
}

TEST(character_never_ends_inside_a_solid_shape_among_random_blocks)
{
    long cases = c2d_test_iterations(10);
    for (long it = 0; it < cases; it++) {
        /* More shapes than the mover's drop-through keeps on its stack (64). */
        c2d_shape *sh[80];
        int n = 0;
        ENSURE_OK(c2d_rect_new(0, -1, 60, 2, 0, &sh[n++]));
        while (n < 80) {
            double x = c2d_test_uniform(-25.0, 25.0);
            double y = c2d_test_uniform(0.5, 8.0);
            double w = c2d_test_uniform(0.3, 2.0);
            double h = c2d_test_uniform(0.1, 0.8);
            double a = c2d_test_uniform(-0.6, 0.6);
            ENSURE_OK(c2d_rect_new(x, y, w, h, a, &sh[n++]));
        }
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)sh, n, NULL, &set));
        for (int i = 3; i < n; i += 7)
            ENSURE_OK(c2d_static_set_set_one_way(set, i, V(0, 1)));
        c2d_shape *s;
        ENSURE_OK(ch_shape((int)(it % 2), 0, 12, &s));
        c2d_vec2 out;
        ENSURE_OK(c2d_static_set_push_out(set, s, &out));
        ENSURE_OK(c2d_shape_set_position(s, V(out.x, 12 + out.y)));
        ch_body b;
        ch_init(&b, s);
        b.o.step_height = 0.3;
        b.o.snap_distance = 0.3;
        double vy = 0;
        int grounded = 0, walls = 0;
        for (int f = 0; f < 600; f++) {
            double vx = c2d_test_uniform(-0.3, 0.3);
            double jump = c2d_test_uniform(0.0, 1.0);
            vy = b.st.grounded ? (jump < 0.05 ? 0.4 : 0.0) : fmax(vy - 0.02, -0.6);
            b.o.drop_through = jump > 0.97;
            c2d_character_result r;
            ENSURE_OK(ch_step(set, &b, V(vx, vy), &r));
            if (r.flags & C2D_CHARACTER_CEILING && vy > 0)
                vy = 0;
            grounded += b.st.grounded;
            walls += (r.flags & C2D_CHARACTER_WALL) != 0;
            for (int i = 0; i < n; i++) {
                if (i >= 3 && (i - 3) % 7 == 0)
                    continue; /* one-way: may be passed through */
                c2d_distance_result dr;
                ENSURE_OK(c2d_distance(s, sh[i], &dr));
                double d = dr.distance;
                ENSURE_MSG(d >= -1e-9, "case %ld frame %d: %.3g inside shape %d", it, f, -d, i);
            }
        }
        /* It walked and ran into things, not only fell. */
        ENSURE_MSG(grounded > 100 && walls > 0, "case %ld: grounded %d frames, walls %d", it, grounded, walls);
        c2d_shape_destroy(s);
        for (int i = 0; i < n; i++)
            c2d_shape_destroy(sh[i]);
        c2d_static_set_destroy(set);
    }
}

TEST(character_on_a_y_down_screen_stands_walks_and_lands_with_up_0_minus_1)
{
    c2d_shape *floor_s, *s;
    ENSURE_OK(c2d_rect_new(0, 101, 40, 2, 0, &floor_s)); /* top at y = 100, y grows down */
    const c2d_shape *arr[1] = {floor_s};
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new(arr, 1, NULL, &set));
    ENSURE_OK(c2d_rect_new(0, 90, 0.8, 1.6, 0, &s));
    ch_body b;
    ch_init(&b, s);
    b.o.up = V(0, -1);
    c2d_character_result r;
    int f;
    for (f = 0; f < 200 && !b.st.grounded; f++)
        ENSURE_OK(ch_step(set, &b, V(0, 0.5), &r));
    c2d_vec2 at;
    c2d_shape_get_position(s, &at);
    ENSURE(b.st.grounded && b.st.ground_normal.y == -1);
    ENSURE_NEAR(at.y, 100 - 0.8, 1e-9);
    ENSURE_OK(ch_step(set, &b, V(0.25, 0.5), &r));
    ENSURE(b.st.grounded);
    ENSURE_NEAR(r.displacement.x, 0.25, 1e-12);
    ENSURE(r.displacement.y == 0);
    /* Up of any length but zero: a tiny one, whose squares underflow, is the same up. */
    c2d_character_state tiny = b.st;
    c2d_character_result rt;
    b.o.up = V(0, -1e-200);
    ENSURE_OK(c2d_static_set_move_character(set, s, V(0.25, 0.5), &b.o, &tiny, &rt, NULL, NULL));
    ENSURE(tiny.grounded && rt.displacement.x == 0.25 && rt.displacement.y == 0);
    c2d_shape_destroy(s);
    c2d_shape_destroy(floor_s);
    c2d_static_set_destroy(set);
}

TEST(character_bad_input_answers_a_status_and_changes_nothing)
{
    c2d_shape *floor_s, *s, *chain;
    ENSURE_OK(c2d_rect_new(0, -1, 40, 2, 0, &floor_s));
    const c2d_shape *arr[1] = {floor_s};
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new(arr, 1, NULL, &set));
    ENSURE_OK(c2d_rect_new(0, 0.8, 0.8, 1.6, 0, &s));
    c2d_vec2 cp[3] = {{0, 0}, {1, 1}, {2, 0}};
    ENSURE_OK(c2d_chain_new(cp, 3, 0, &chain));
    c2d_character_options o = c2d_character_options_default();
    c2d_character_state st, st0;
    c2d_character_result r, r0;
    memset(&st, 0x5a, sizeof st);
    st.grounded = 1;
    st.ground_index = 0;
    st.ground_normal = V(0, 1);
    st.ground_velocity = V(0, 0);
    st0 = st;
    memset(&r, 0xa5, sizeof r);
    r0 = r;
    double nan = NAN, inf = INFINITY;
    ENSURE(c2d_static_set_move_character(NULL, s, V(1, 0), &o, &st, &r, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move_character(set, NULL, V(1, 0), &o, &st, &r, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &o, NULL, &r, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &o, &st, NULL, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move_character(set, s, V(nan, 0), &o, &st, &r, NULL, NULL) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_move_character(set, s, V(0, inf), &o, &st, &r, NULL, NULL) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_move_character(set, s, V(2e15, 0), &o, &st, &r, NULL, NULL) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_move_character(set, chain, V(1, 0), &o, &st, &r, NULL, NULL) == C2D_ERR_NOT_CONVEX);
    c2d_character_options bad = o;
    bad.up = V(0, 0);
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &bad, &st, &r, NULL, NULL) == C2D_ERR_DEGENERATE);
    bad = o;
    bad.max_slope = CH_PI / 2;
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &bad, &st, &r, NULL, NULL) == C2D_ERR_RANGE);
    bad.max_slope = -0.1;
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &bad, &st, &r, NULL, NULL) == C2D_ERR_RANGE);
    bad = o;
    bad.snap_distance = -1;
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &bad, &st, &r, NULL, NULL) == C2D_ERR_RANGE);
    bad = o;
    bad.step_height = nan;
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &bad, &st, &r, NULL, NULL) == C2D_ERR_NOT_FINITE);
    bad = o;
    bad.snap_distance = 1e15;
    bad.step_height = 1e15;
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &bad, &st, &r, NULL, NULL) == C2D_ERR_RANGE);
    c2d_character_state bs = st;
    bs.ground_index = 1;
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &o, &bs, &r, NULL, NULL) == C2D_ERR_RANGE);
    bs.ground_index = -2;
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &o, &bs, &r, NULL, NULL) == C2D_ERR_RANGE);
    bs = st;
    bs.ground_normal = V(nan, 1);
    ENSURE(c2d_static_set_move_character(set, s, V(1, 0), &o, &bs, &r, NULL, NULL) == C2D_ERR_NOT_FINITE);
    ENSURE(memcmp(&st, &st0, sizeof st) == 0);
    ENSURE(memcmp(&r, &r0, sizeof r) == 0);
    /* A report that fails: its status, and nothing written. */
    ENSURE(c2d_static_set_move_character(set, s, V(1, -1), &o, &st, &r, ch_fail, NULL) == C2D_ERR_CAPACITY);
    ENSURE(memcmp(&st, &st0, sizeof st) == 0);
    ENSURE(memcmp(&r, &r0, sizeof r) == 0);
    /* And a good call writes both. */
    ENSURE_OK(c2d_static_set_move_character(set, s, V(1, -1), NULL, &st, &r, NULL, NULL));
    ENSURE(st.grounded == 1 && st.ground_index == 0 && st.ground_user == 0);
    ENSURE_NEAR(r.displacement.x, 1.0, 1e-12);
    c2d_shape_destroy(chain);
    c2d_shape_destroy(s);
    c2d_shape_destroy(floor_s);
    c2d_static_set_destroy(set);
}

TEST(character_wedged_in_a_steep_v_stands_there_and_jumps_out)
{
    for (int kind = 0; kind < 2; kind++) {
        /* Two 65 degree walls meeting at (0, 0): a V too steep to stand on either side of. */
        double a = 65 * CH_PI / 180, h = 6 * tan(a);
        c2d_vec2 left[3] = {{-6, 0}, {0, 0}, {-6, h}}, right[3] = {{0, 0}, {6, 0}, {6, h}};
        c2d_shape *l, *r, *s;
        ENSURE_OK(c2d_polygon_new(left, 3, &l));
        ENSURE_OK(c2d_polygon_new(right, 3, &r));
        const c2d_shape *arr[2] = {l, r};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(arr, 2, NULL, &set));
        ENSURE_OK(ch_shape(kind, 0.1, 6, &s));
        ch_body b;
        ch_init(&b, s);
        c2d_character_result res;
        double vy = 0;
        int f;
        for (f = 0; f < 300 && !b.st.grounded; f++) {
            vy -= 0.02;
            ENSURE_OK(ch_step(set, &b, V(0, vy), &res));
            ENSURE(ch_depth(set, s) <= 1e-9);
        }
        ENSURE_MSG(b.st.grounded && (res.flags & C2D_CHARACTER_STEEP), "kind %d: never wedged (flags %d)", kind,
                   res.flags);
        ENSURE(b.st.ground_normal.y < cos(50 * CH_PI / 180)); /* the steep normal, as it is */
        c2d_vec2 at, now;
        c2d_shape_get_position(s, &at);
        for (f = 0; f < 50; f++) {
            ENSURE_OK(ch_step(set, &b, V(0.05, -0.02), &res));
            ENSURE(b.st.grounded);
        }
        c2d_shape_get_position(s, &now);
        ENSURE_MSG(fabs(now.x - at.x) < 1e-6 && fabs(now.y - at.y) < 1e-6, "kind %d: moved in the wedge", kind);
        /* A jump gets out: up it goes, no longer grounded. */
        ENSURE_OK(ch_step(set, &b, V(0, 0.5), &res));
        ENSURE(!b.st.grounded && res.displacement.y > 0.49);
        c2d_shape_destroy(s);
        c2d_shape_destroy(l);
        c2d_shape_destroy(r);
        c2d_static_set_destroy(set);
    }
}

/* ---- the same mover through a world ---- */

static c2d_response ch_cross_second(void *ctx, c2d_world_id id, uintptr_t user)
{
    (void)id;
    (void)ctx;
    return user == 2 ? C2D_RESPONSE_CROSS : C2D_RESPONSE_SLIDE;
}

TEST(character_in_a_world_moves_as_in_a_static_set_of_the_same_shapes)
{
    long cases = c2d_test_iterations(6);
    for (long it = 0; it < cases; it++) {
        int segs = 8;
        c2d_vec2 p[CH_MAX_SEGS + 1];
        ch_floor(p, segs, 35.0);
        c2d_shape *floor_s, *block, *ledge;
        ENSURE_OK(c2d_chain_new(p, segs + 1, 0, &floor_s));
        double bx = p[4].x;
        ENSURE_OK(c2d_rect_new(bx, p[4].y + 0.1, 0.6, 0.6, 0, &block)); /* a step 0.4 high over the floor there */
        ENSURE_OK(c2d_rect_new(p[6].x, p[6].y + 2.5, 3, 0.3, 0, &ledge));
        /* A seesaw where the character lands, swinging and bobbing: it rides it, turning, until it
         * walks off. The world's entry is placed each frame where the set's advance placed its copy. */
        c2d_shape *seesaw, *seesaw_w;
        ENSURE_OK(c2d_rect_new(1.5, 1.0, 4, 0.2, 0, &seesaw));
        ENSURE_OK(c2d_rect_new(1.5, 1.0, 4, 0.2, 0, &seesaw_w));
        const c2d_shape *arr[4] = {floor_s, block, ledge, seesaw};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(arr, 4, NULL, &set));
        ENSURE_OK(c2d_static_set_set_one_way(set, 2, V(0, 1)));
        c2d_world *w;
        ENSURE_OK(c2d_world_new(&w));
        c2d_world_id ids[4];
        ENSURE_OK(c2d_world_add(w, floor_s, 10, &ids[0]));
        ENSURE_OK(c2d_world_add(w, block, 11, &ids[1]));
        ENSURE_OK(c2d_world_add(w, ledge, 12, &ids[2]));
        ENSURE_OK(c2d_world_add(w, seesaw_w, 13, &ids[3]));
        ENSURE_OK(c2d_world_set_one_way(w, ids[2], V(0, 1)));
        double swing = c2d_test_uniform(0.01, 0.03);
        c2d_vec2 hinge = V(c2d_test_uniform(-1.0, 1.0), 0);
        /* A third world holds the set as its level, and one small shape on the way that respond
         * crosses (so the motion runs through the level alone far from it, and through the level's
         * shapes and it together near it): the same moves, the ground named by its index in the level. */
        c2d_world *wl;
        c2d_shape *pebble, *c3;
        c2d_world_id pebble_id;
        ENSURE_OK(c2d_world_new(&wl));
        ENSURE_OK(c2d_world_set_level(wl, set));
        ENSURE_OK(c2d_circle_new(p[2].x, p[2].y + 0.5, 0.2, &pebble));
        ENSURE_OK(c2d_world_add(wl, pebble, 2, &pebble_id));
        ENSURE_OK(ch_shape((int)(it % 2), 1.0, 2.0, &c3));
        c2d_world_character_state sc;
        memset(&sc, 0, sizeof sc);
        c2d_shape *a, *b2;
        ENSURE_OK(ch_shape((int)(it % 2), 1.0, 2.0, &a));
        ENSURE_OK(ch_shape((int)(it % 2), 1.0, 2.0, &b2));
        c2d_character_options o = c2d_character_options_default();
        o.snap_distance = 0.3;
        o.step_height = 0.5;
        c2d_character_state sa;
        c2d_world_character_state sb;
        memset(&sa, 0, sizeof sa);
        sa.ground_index = -1;
        memset(&sb, 0, sizeof sb);
        double vy = 0;
        int stood = 0, rode = 0;
        for (int f = 0; f < 400; f++) {
            c2d_motion sm;
            memset(&sm, 0, sizeof sm);
            sm.angular_velocity = swing * sin(0.07 * f);
            sm.velocity = V(0, 0.01 * cos(0.05 * f));
            sm.pivot = hinge;
            ENSURE_OK(c2d_static_set_set_motion(set, 3, &sm));
            ENSURE_OK(c2d_world_set_motion(w, ids[3], &sm));
            double dir = (f / 150) % 2 == 0 ? 1.0 : -1.0;
            vy = sa.grounded ? (f % 97 == 0 ? 0.3 : 0.0) : fmax(vy - 0.02, -0.5);
            c2d_vec2 d = V(0.1 * dir, sa.grounded && vy == 0 ? -0.02 : vy);
            c2d_character_result ra, rb;
            ENSURE_OK(c2d_static_set_move_character(set, a, d, &o, &sa, &ra, NULL, NULL));
            ENSURE_OK(c2d_world_move_character(w, b2, d, NULL, NULL, NULL, &o, &sb, &rb, NULL, NULL));
            c2d_character_result rc;
            ENSURE_OK(c2d_world_move_character(wl, c3, d, NULL, ch_cross_second, NULL, &o, &sc, &rc, NULL, NULL));
            ENSURE_MSG(ra.displacement.x == rc.displacement.x && ra.displacement.y == rc.displacement.y &&
                           ra.flags == rc.flags && sa.grounded == sc.grounded,
                       "case %ld frame %d: set (%.17g, %.17g) flags %d, world with the set as level (%.17g, %.17g) flags %d",
                       it, f, ra.displacement.x, ra.displacement.y, ra.flags, rc.displacement.x, rc.displacement.y,
                       rc.flags);
            ENSURE(!sa.grounded || (sc.ground_id == 0 && sc.ground_index == sa.ground_index));
            ENSURE_MSG(ra.displacement.x == rb.displacement.x && ra.displacement.y == rb.displacement.y &&
                           ra.flags == rb.flags && sa.grounded == sb.grounded,
                       "case %ld frame %d: set (%.17g, %.17g) flags %d, world (%.17g, %.17g) flags %d", it, f,
                       ra.displacement.x, ra.displacement.y, ra.flags, rb.displacement.x, rb.displacement.y, rb.flags);
            if (sa.grounded) {
                ENSURE(sb.ground_id == ids[sa.ground_index] && sb.ground_user == (uintptr_t)(10 + sa.ground_index));
                ENSURE(sb.ground_normal.x == sa.ground_normal.x && sb.ground_normal.y == sa.ground_normal.y);
                ENSURE_MSG(sb.ground_point.x == sa.ground_point.x && sb.ground_point.y == sa.ground_point.y &&
                               sc.ground_point.x == sa.ground_point.x && sc.ground_point.y == sa.ground_point.y,
                           "case %ld frame %d: stands at (%.17g, %.17g) in the set, (%.17g, %.17g) and (%.17g, %.17g) in the worlds",
                           it, f, sa.ground_point.x, sa.ground_point.y, sb.ground_point.x, sb.ground_point.y,
                           sc.ground_point.x, sc.ground_point.y);
                ENSURE(sb.ground_velocity.x == sa.ground_velocity.x && sb.ground_velocity.y == sa.ground_velocity.y);
                ENSURE(sc.ground_velocity.x == sa.ground_velocity.x && sc.ground_velocity.y == sa.ground_velocity.y);
                stood++;
                rode += sa.ground_index == 3;
            } else {
                ENSURE(sb.ground_id == 0);
            }
            c2d_shape_move(a, ra.displacement);
            c2d_shape_move(b2, rb.displacement);
            c2d_shape_move(c3, rc.displacement);
            ENSURE_OK(c2d_static_set_advance(set, 1.0));
            c2d_vec2 sp;
            double sang;
            ENSURE_OK(c2d_static_set_get_transform(set, 3, &sp, &sang));
            ENSURE_OK(c2d_shape_set_transform(seesaw_w, sp, sang));
            ENSURE_OK(c2d_world_update(w, ids[3]));
        }
        ENSURE_MSG(stood > 200, "case %ld: stood %d frames (rode %d)", it, stood, rode);
        ENSURE_MSG(rode >= 10, "case %ld: rode the seesaw %d frames", it, rode);
        c2d_shape_destroy(a);
        c2d_shape_destroy(b2);
        c2d_shape_destroy(c3);
        c2d_world_destroy(wl);
        c2d_shape_destroy(pebble);
        c2d_world_destroy(w);
        c2d_static_set_destroy(set);
        c2d_shape_destroy(floor_s);
        c2d_shape_destroy(block);
        c2d_shape_destroy(ledge);
        c2d_shape_destroy(seesaw);
        c2d_shape_destroy(seesaw_w);
    }
}

TEST(character_in_a_world_rides_an_entry_in_motion_and_passes_what_respond_crosses)
{
    c2d_shape *plat, *wall, *s;
    ENSURE_OK(c2d_rect_new(0, 0, 6, 1, 0, &plat));
    ENSURE_OK(c2d_rect_new(2, 2, 0.4, 2, 0, &wall)); /* on the platform, in the way: crossed */
    c2d_world *w;
    ENSURE_OK(c2d_world_new(&w));
    c2d_world_id pid, wid;
    ENSURE_OK(c2d_world_add(w, plat, 1, &pid));
    ENSURE_OK(c2d_world_add(w, wall, 2, &wid));
    ENSURE_OK(ch_shape(0, 0, 1.3, &s));
    c2d_world_character_state st;
    memset(&st, 0, sizeof st);
    c2d_character_result r;
    ENSURE_OK(c2d_world_move_character(w, s, V(0, -0.05), NULL, ch_cross_second, NULL, NULL, &st, &r, NULL, NULL));
    ENSURE(st.grounded && st.ground_id == pid && st.ground_user == 1);
    c2d_shape_move(s, r.displacement);
    c2d_vec2 pp, cp;
    c2d_shape_get_position(plat, &pp);
    c2d_shape_get_position(s, &cp);
    c2d_vec2 offset = V(cp.x - pp.x, cp.y - pp.y);
    for (int f = 0; f < 200; f++) {
        double vx = c2d_test_uniform(-0.3, 0.3);
        double vy = c2d_test_uniform(-0.3, 0.3);
        c2d_motion m;
        memset(&m, 0, sizeof m);
        m.velocity = V(vx, vy);
        ENSURE_OK(c2d_world_set_motion(w, pid, &m));
        ENSURE_OK(c2d_world_move_character(w, s, V(0, -0.05), NULL, ch_cross_second, NULL, NULL, &st, &r, NULL,
                                           NULL));
        ENSURE_MSG(st.grounded && st.ground_id == pid, "frame %d: off the platform", f);
        ENSURE(st.ground_velocity.x == vx && st.ground_velocity.y == vy);
        c2d_shape_move(s, r.displacement);
        c2d_shape_move(plat, m.velocity);
        ENSURE_OK(c2d_world_update(w, pid));
        c2d_shape_get_position(plat, &pp);
        c2d_shape_get_position(s, &cp);
        ENSURE_MSG(fabs(cp.x - pp.x - offset.x) <= 1e-9 && fabs(cp.y - pp.y - offset.y) <= 1e-9,
                   "frame %d: offset (%.17g, %.17g), was (%.17g, %.17g)", f, cp.x - pp.x, cp.y - pp.y, offset.x,
                   offset.y);
    }
    /* Walking through the crossed wall: respond's CROSS passes it. */
    c2d_motion still;
    memset(&still, 0, sizeof still);
    ENSURE_OK(c2d_world_set_motion(w, pid, &still));
    ENSURE_OK(c2d_shape_set_position(plat, V(0, 0)));
    ENSURE_OK(c2d_world_update(w, pid));
    ENSURE_OK(c2d_shape_set_position(s, V(0, 1.3)));
    memset(&st, 0, sizeof st);
    for (int f = 0; f < 30; f++) {
        ENSURE_OK(c2d_world_move_character(w, s, V(0.1, -0.05), NULL, ch_cross_second, NULL, NULL, &st, &r, NULL,
                                           NULL));
        ENSURE(!(r.flags & C2D_CHARACTER_WALL));
        c2d_shape_move(s, r.displacement);
    }
    c2d_shape_get_position(s, &cp);
    ENSURE_MSG(cp.x > 2.5, "stopped at the crossed wall: x %.17g", cp.x);
    /* Bad input: a status, nothing written. */
    c2d_world_character_state bad = st, keep;
    c2d_character_result r0 = r;
    bad.grounded = 1;
    bad.ground_id = 12345;
    keep = bad;
    ENSURE(c2d_world_move_character(w, s, V(0.1, 0), NULL, NULL, NULL, NULL, &bad, &r, NULL, NULL) == C2D_ERR_RANGE);
    ENSURE(memcmp(&bad, &keep, sizeof bad) == 0 && memcmp(&r, &r0, sizeof r) == 0);
    ENSURE(c2d_world_move_character(NULL, s, V(0.1, 0), NULL, NULL, NULL, NULL, &st, &r, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_move_character(w, s, V(NAN, 0), NULL, NULL, NULL, NULL, &st, &r, NULL, NULL) ==
           C2D_ERR_NOT_FINITE);
    ENSURE(memcmp(&r, &r0, sizeof r) == 0);
    c2d_shape_destroy(s);
    c2d_world_destroy(w);
    c2d_shape_destroy(plat);
    c2d_shape_destroy(wall);
}
