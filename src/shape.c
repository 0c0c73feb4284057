/* shape.c - shape handles: construction and validation, placement (position and angle), bounding
 * boxes, vertices, cloning; plus the version and status-string calls. */
#include "shape.h"
#include "trig.h"

#include <stdlib.h>
#include <string.h>

#define C2D_STR2(x) #x
#define C2D_STR(x) C2D_STR2(x)

int c2d_version(void)
{
    return C2D_VERSION_NUMBER;
}

const char *c2d_version_string(void)
{
    return C2D_STR(C2D_VERSION_MAJOR) "." C2D_STR(C2D_VERSION_MINOR) "." C2D_STR(C2D_VERSION_PATCH);
}

const char *c2d_status_string(c2d_status status)
{
    switch (status) {
    case C2D_OK: return "ok";
    case C2D_ERR_NULL: return "NULL argument";
    case C2D_ERR_NOT_FINITE: return "number is NaN or infinite";
    case C2D_ERR_RANGE: return "number or count out of range";
    case C2D_ERR_SIZE: return "size or radius must be positive";
    case C2D_ERR_DEGENERATE: return "degenerate geometry (too few distinct points, collinear, or zero length)";
    case C2D_ERR_NOT_CONVEX: return "points do not form a convex polygon";
    case C2D_ERR_NO_MEMORY: return "out of memory";
    case C2D_ERR_CAPACITY: return "output array too small";
    }
    return "unknown status";
}

c2d_shape *c2d_shape_alloc(int count)
{
    /* The four arrays share one block sized exactly (a circle has one vertex and no normals), the
     * placed ones first: a query then reads one short contiguous run of memory. */
    int edges = count >= 2 ? count : 0;
    size_t slots = 2 * (size_t)count + 2 * (size_t)edges;
    c2d_shape *s = (c2d_shape *)calloc(1, sizeof(c2d_shape) + slots * sizeof(c2d_vec2));
    if (!s)
        return NULL;
    s->count = count;
    s->world = s->store;
    s->normal = s->world + count;
    s->local = s->normal + edges;
    s->lnormal = s->local + count;
    s->cos_a = 1.0;
    return s;
}

/* Recomputes everything derived from the position and angle. */
void c2d_shape_place(c2d_shape *s)
{
    double c, sn;
    c2d_sincos(s->angle, &sn, &c); /* not libm's sin and cos: the same bits on every platform */
    int n = s->count, ne = c2d_edge_count(s);
    s->cos_a = c;
    s->sin_a = sn;
    s->axis_aligned = (c == 0.0 || sn == 0.0);
    c2d_vec2 lo = v2(INFINITY, INFINITY), hi = v2(-INFINITY, -INFINITY);
    for (int i = 0; i < n; i++) {
        c2d_vec2 l = s->local[i];
        c2d_vec2 w = v2(s->pos.x + (c * l.x - sn * l.y), s->pos.y + (sn * l.x + c * l.y));
        s->world[i] = w;
        lo.x = fmin(lo.x, w.x);
        lo.y = fmin(lo.y, w.y);
        hi.x = fmax(hi.x, w.x);
        hi.y = fmax(hi.y, w.y);
    }
    for (int i = 0; i < ne; i++) {
        c2d_vec2 l = s->lnormal[i];
        s->normal[i] = v2(c * l.x - sn * l.y, sn * l.x + c * l.y);
    }
    s->aabb.min = v2(lo.x - s->radius, lo.y - s->radius);
    s->aabb.max = v2(hi.x + s->radius, hi.y + s->radius);
}

/* Local edge normals of a counter-clockwise core (2-vertex cores get both sides). */
static void compute_local_normals(c2d_shape *s)
{
    int n = s->count;
    if (s->type == C2D_SHAPE_RECT) {
        /* Exact axes: a side too thin for half of it to be representable (a denormal width) has
         * zero-length edges, whose computed normals would be the fallback and wrong. */
        static const c2d_vec2 axes[4] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
        memcpy(s->lnormal, axes, sizeof axes);
        return;
    }
    for (int i = 0; i < n && n >= 2; i++) {
        c2d_vec2 e = v2_sub(s->local[(i + 1) % n], s->local[i]);
        s->lnormal[i] = v2_normalize_or(v2_right(e), v2(0, 1));
    }
}

static c2d_status finish(c2d_shape *s, c2d_shape **out)
{
    compute_local_normals(s);
    c2d_shape_place(s);
    *out = s;
    return C2D_OK;
}

c2d_status c2d_circle_new(double x, double y, double r, c2d_shape **out)
{
    c2d_status st;
    if (!out)
        return C2D_ERR_NULL;
    if ((st = c2d_check_number(x)) || (st = c2d_check_number(y)) || (st = c2d_check_number(r)))
        return st;
    if (!(r > 0))
        return C2D_ERR_SIZE;
    c2d_shape *s = c2d_shape_alloc(1);
    if (!s)
        return C2D_ERR_NO_MEMORY;
    s->type = C2D_SHAPE_CIRCLE;
    s->radius = r;
    s->pos = v2(x, y);
    return finish(s, out);
}

c2d_status c2d_rect_new(double cx, double cy, double w, double h, double angle, c2d_shape **out)
{
    c2d_status st;
    if (!out)
        return C2D_ERR_NULL;
    if ((st = c2d_check_number(cx)) || (st = c2d_check_number(cy)) || (st = c2d_check_number(w)) ||
        (st = c2d_check_number(h)) || (st = c2d_check_number(angle)))
        return st;
    if (!(w > 0) || !(h > 0))
        return C2D_ERR_SIZE;
    c2d_shape *s = c2d_shape_alloc(4);
    if (!s)
        return C2D_ERR_NO_MEMORY;
    double hx = 0.5 * w, hy = 0.5 * h;
    s->type = C2D_SHAPE_RECT;
    s->hx = hx;
    s->hy = hy;
    s->pos = v2(cx, cy);
    s->angle = angle;
    s->local[0] = v2(-hx, -hy);
    s->local[1] = v2(hx, -hy);
    s->local[2] = v2(hx, hy);
    s->local[3] = v2(-hx, hy);
    return finish(s, out);
}

/* Capsules and segments: a 2-vertex core centred on the midpoint. */
static c2d_status new_two_point(c2d_shape_type type, c2d_vec2 a, c2d_vec2 b, double r, c2d_shape **out)
{
    c2d_status st;
    if (!out)
        return C2D_ERR_NULL;
    if ((st = c2d_check_vec(a)) || (st = c2d_check_vec(b)) || (st = c2d_check_number(r)))
        return st;
    if (type == C2D_SHAPE_CAPSULE && !(r > 0))
        return C2D_ERR_SIZE;
    if (a.x == b.x && a.y == b.y)
        return C2D_ERR_DEGENERATE;
    c2d_shape *s = c2d_shape_alloc(2);
    if (!s)
        return C2D_ERR_NO_MEMORY;
    s->type = type;
    s->radius = r;
    s->pos = v2_mid(a, b);
    s->local[0] = v2_sub(a, s->pos);
    s->local[1] = v2_sub(b, s->pos);
    return finish(s, out);
}

c2d_status c2d_capsule_new(c2d_vec2 a, c2d_vec2 b, double r, c2d_shape **out)
{
    return new_two_point(C2D_SHAPE_CAPSULE, a, b, r, out);
}

/* An axis-aligned rectangle covering box, for queries: the box's corners are checked by the caller,
 * but its sides may reach 2 * C2D_MAX_COORDINATE, which c2d_rect_new would refuse as a size. */
c2d_status c2d_box_probe_new(c2d_aabb box, c2d_shape **out)
{
    c2d_shape *s = c2d_shape_alloc(4);
    if (!s)
        return C2D_ERR_NO_MEMORY;
    double hx = 0.5 * (box.max.x - box.min.x), hy = 0.5 * (box.max.y - box.min.y);
    s->type = C2D_SHAPE_RECT;
    s->hx = hx;
    s->hy = hy;
    s->pos = v2(0.5 * box.min.x + 0.5 * box.max.x, 0.5 * box.min.y + 0.5 * box.max.y);
    s->angle = 0.0;
    s->local[0] = v2(-hx, -hy);
    s->local[1] = v2(hx, -hy);
    s->local[2] = v2(hx, hy);
    s->local[3] = v2(-hx, hy);
    return finish(s, out);
}

c2d_status c2d_segment_new(c2d_vec2 a, c2d_vec2 b, c2d_shape **out)
{
    return new_two_point(C2D_SHAPE_SEGMENT, a, b, 0.0, out);
}

/* Polygons: validated points, placed at their centroid. */
static c2d_status new_polygon(const c2d_vec2 *points, int n, int hull, c2d_shape **out)
{
    c2d_status st;
    if (!out || !points)
        return C2D_ERR_NULL;
    if (n < 0 || n > C2D_MAX_POLYGON_POINTS)
        return C2D_ERR_RANGE;
    for (int i = 0; i < n; i++)
        if ((st = c2d_check_vec(points[i])) != C2D_OK)
            return st;
    if (n < 3)
        return C2D_ERR_DEGENERATE;
    c2d_vec2 *clean = (c2d_vec2 *)malloc((size_t)n * sizeof(c2d_vec2));
    if (!clean)
        return C2D_ERR_NO_MEMORY;
    int m = 0;
    st = c2d_convex_points(points, n, hull, clean, &m);
    if (st != C2D_OK) {
        free(clean);
        return st;
    }
    c2d_shape *s = c2d_shape_alloc(m);
    if (!s) {
        free(clean);
        return C2D_ERR_NO_MEMORY;
    }
    /* Centroid by triangle fan about the first vertex: relative coordinates keep precision far
     * from the origin. */
    c2d_vec2 o = clean[0], acc = v2(0, 0);
    double area2 = 0;
    for (int i = 1; i + 1 < m; i++) {
        c2d_vec2 e1 = v2_sub(clean[i], o), e2 = v2_sub(clean[i + 1], o);
        double a = v2_cross(e1, e2);
        area2 += a;
        acc = v2_mad(acc, a, v2_add(e1, e2));
    }
    c2d_vec2 centroid = v2_add(o, v2_scale(acc, 1.0 / (3.0 * area2)));
    s->type = C2D_SHAPE_POLYGON;
    s->pos = centroid;
    for (int i = 0; i < m; i++)
        s->local[i] = v2_sub(clean[i], centroid);
    free(clean);
    return finish(s, out);
}

c2d_status c2d_polygon_new(const c2d_vec2 *points, int n, c2d_shape **out)
{
    return new_polygon(points, n, 0, out);
}

c2d_status c2d_hull_new(const c2d_vec2 *points, int n, c2d_shape **out)
{
    return new_polygon(points, n, 1, out);
}

c2d_status c2d_shape_clone(const c2d_shape *shape, c2d_shape **out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    c2d_shape *s = c2d_shape_alloc(shape->count);
    if (!s)
        return C2D_ERR_NO_MEMORY;
    /* Copy the fields, then the arrays, keeping the new block's own array pointers. */
    c2d_vec2 *l = s->local, *ln = s->lnormal, *w = s->world, *nn = s->normal;
    *s = *shape;
    s->local = l;
    s->lnormal = ln;
    s->world = w;
    s->normal = nn;
    size_t vbytes = (size_t)shape->count * sizeof(c2d_vec2);
    size_t nbytes = (size_t)c2d_edge_count(shape) * sizeof(c2d_vec2);
    memcpy(s->world, shape->world, vbytes);
    memcpy(s->local, shape->local, vbytes);
    memcpy(s->normal, shape->normal, nbytes);
    memcpy(s->lnormal, shape->lnormal, nbytes);
    *out = s;
    return C2D_OK;
}

void c2d_shape_destroy(c2d_shape *shape)
{
    free(shape);
}

c2d_shape_type c2d_shape_get_type(const c2d_shape *shape)
{
    return shape ? shape->type : C2D_SHAPE_NONE;
}

c2d_status c2d_shape_get_position(const c2d_shape *shape, c2d_vec2 *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    *out = shape->pos;
    return C2D_OK;
}

c2d_status c2d_shape_get_angle(const c2d_shape *shape, double *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    *out = shape->angle;
    return C2D_OK;
}

c2d_status c2d_shape_set_transform(c2d_shape *shape, c2d_vec2 p, double angle)
{
    c2d_status st;
    if (!shape)
        return C2D_ERR_NULL;
    if ((st = c2d_check_vec(p)) || (st = c2d_check_number(angle)))
        return st;
    shape->pos = p;
    if (angle != shape->angle) {
        shape->angle = angle;
        c2d_shape_place(shape);
        return C2D_OK;
    }
    /* Pure translation: shift the placed vertices rather than recomputing sines. */
    c2d_vec2 c = v2(shape->cos_a, shape->sin_a);
    for (int i = 0; i < shape->count; i++) {
        c2d_vec2 l = shape->local[i];
        shape->world[i] = v2(p.x + (c.x * l.x - c.y * l.y), p.y + (c.y * l.x + c.x * l.y));
    }
    c2d_vec2 lo = shape->world[0], hi = shape->world[0];
    for (int i = 1; i < shape->count; i++) {
        lo = v2(fmin(lo.x, shape->world[i].x), fmin(lo.y, shape->world[i].y));
        hi = v2(fmax(hi.x, shape->world[i].x), fmax(hi.y, shape->world[i].y));
    }
    shape->aabb.min = v2(lo.x - shape->radius, lo.y - shape->radius);
    shape->aabb.max = v2(hi.x + shape->radius, hi.y + shape->radius);
    return C2D_OK;
}

c2d_status c2d_shape_set_position(c2d_shape *shape, c2d_vec2 p)
{
    if (!shape)
        return C2D_ERR_NULL;
    return c2d_shape_set_transform(shape, p, shape->angle);
}

c2d_status c2d_shape_set_angle(c2d_shape *shape, double angle)
{
    if (!shape)
        return C2D_ERR_NULL;
    return c2d_shape_set_transform(shape, shape->pos, angle);
}

c2d_status c2d_shape_move(c2d_shape *shape, c2d_vec2 d)
{
    c2d_status st;
    if (!shape)
        return C2D_ERR_NULL;
    if ((st = c2d_check_vec(d)) != C2D_OK)
        return st;
    return c2d_shape_set_transform(shape, v2_add(shape->pos, d), shape->angle);
}

c2d_status c2d_shape_rotate(c2d_shape *shape, double delta)
{
    c2d_status st;
    if (!shape)
        return C2D_ERR_NULL;
    if ((st = c2d_check_number(delta)) != C2D_OK)
        return st;
    return c2d_shape_set_transform(shape, shape->pos, shape->angle + delta);
}

c2d_status c2d_shape_get_aabb(const c2d_shape *shape, c2d_aabb *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    *out = shape->aabb;
    return C2D_OK;
}

c2d_status c2d_shape_get_radius(const c2d_shape *shape, double *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    *out = shape->radius;
    return C2D_OK;
}

c2d_status c2d_shape_get_vertices(const c2d_shape *shape, c2d_vec2 *out, int capacity, int *count)
{
    if (!shape || !count)
        return C2D_ERR_NULL;
    if (capacity < 0)
        return C2D_ERR_RANGE;
    if (capacity > 0 && !out)
        return C2D_ERR_NULL;
    *count = shape->count;
    if (!out)
        return C2D_OK;
    if (capacity < shape->count)
        return C2D_ERR_CAPACITY;
    memcpy(out, shape->world, (size_t)shape->count * sizeof(c2d_vec2));
    return C2D_OK;
}
