/* narrow_floor.h - the floor for box-box contacts: a minimal hand-written double-precision SAT and
 * clip for two rotated boxes, in the style of box2d-lite's b2Collide (Collide.cpp), computing what
 * c2d_collide returns for two rectangles: the world normal from A to B, the depth (least penetration
 * over the four face axes), and up to two points midway between the surfaces with their depths.
 *
 * Its inputs are poses (centre, angle) and half extents, so placing the boxes (a sine and cosine per
 * box) is part of its cost, as set_transform is part of collide2d's in the timed column. It has no
 * argument checks, no bounding-box test, no status, no handle: it is what a programmer writes for
 * this one pair when nothing else matters, the cost a general library should approach. It follows
 * collide2d's choices (A's face on ties, the incident edge most opposed to the normal, the same
 * clip) so that bench_narrow can check that the two agree before timing them. */
#ifndef C2D_NARROW_FLOOR_H
#define C2D_NARROW_FLOOR_H

#include <math.h>

#include "collide2d.h"

namespace {

struct FloorBox {
    double x, y, angle, hx, hy;
};

/* Returns the number of contact points (0: apart). Touching counts as contact. Not inlined, so that
 * the whole result is written as a library call would write it (inlined, the compiler would drop the
 * work whose results the timing loop does not read). */
__attribute__((noinline, noclone)) int floor_box_box(const FloorBox &A, const FloorBox &B, c2d_contact *c)
{
    double sa = sin(A.angle), ca = cos(A.angle), sb = sin(B.angle), cb = cos(B.angle);
    double dx = B.x - A.x, dy = B.y - A.y;
    /* Axes: A's are (ca, sa) and (-sa, ca), B's (cb, sb) and (-sb, cb). C = R_A^T R_B. */
    double c00 = ca * cb + sa * sb, c01 = sa * cb - ca * sb;
    double c10 = ca * sb - sa * cb; /* and c11 = c00 */
    double a00 = fabs(c00), a01 = fabs(c01), a10 = fabs(c10), a11 = a00;
    double dax = ca * dx + sa * dy, day = ca * dy - sa * dx; /* d in A's frame */
    double dbx = cb * dx + sb * dy, dby = cb * dy - sb * dx; /* d in B's frame */
    double fax = fabs(dax) - A.hx - (a00 * B.hx + a01 * B.hy);
    double fay = fabs(day) - A.hy - (a10 * B.hx + a11 * B.hy);
    double fbx = fabs(dbx) - B.hx - (a00 * A.hx + a10 * A.hy);
    double fby = fabs(dby) - B.hy - (a01 * A.hx + a11 * A.hy);
    if (fax > 0 || fay > 0 || fbx > 0 || fby > 0) {
        c->count = 0;
        return 0;
    }
    double s_a = fmax(fax, fay), s_b = fmax(fbx, fby);

    /* Reference face: centre rc, outward normal n (towards the incident box), tangent u, half
     * length h along u; the incident box: centre ic, axes (ix, iy), half extents (ihx, ihy). */
    double nx, ny, ux, uy, front, h, rcx, rcy, icx, icy, ixx, ixy, iyx, iyy, ihx, ihy;
    bool ref_a = s_a >= s_b;
    if (ref_a) {
        rcx = A.x, rcy = A.y;
        icx = B.x, icy = B.y, ixx = cb, ixy = sb, iyx = -sb, iyy = cb, ihx = B.hx, ihy = B.hy;
        if (fax >= fay) {
            double s = dax < 0 ? -1.0 : 1.0;
            nx = s * ca, ny = s * sa, front = A.hx, h = A.hy;
        } else {
            double s = day < 0 ? -1.0 : 1.0;
            nx = -s * sa, ny = s * ca, front = A.hy, h = A.hx;
        }
    } else {
        rcx = B.x, rcy = B.y;
        icx = A.x, icy = A.y, ixx = ca, ixy = sa, iyx = -sa, iyy = ca, ihx = A.hx, ihy = A.hy;
        if (fbx >= fby) {
            double s = dbx < 0 ? 1.0 : -1.0;
            nx = s * cb, ny = s * sb, front = B.hx, h = B.hy;
        } else {
            double s = dby < 0 ? 1.0 : -1.0;
            nx = -s * sb, ny = s * cb, front = B.hy, h = B.hx;
        }
    }
    ux = -ny, uy = nx;

    /* Incident edge: the face of the incident box whose normal opposes n most. */
    double nix = nx * ixx + ny * ixy, niy = nx * iyx + ny * iyy;
    double ex, ey, fx, fy, half; /* the face's centre offset and its tangent, half length */
    if (fabs(nix) > fabs(niy)) {
        double s = nix > 0 ? -1.0 : 1.0;
        ex = s * ihx * ixx, ey = s * ihx * ixy, fx = iyx, fy = iyy, half = ihy;
    } else {
        double s = niy > 0 ? -1.0 : 1.0;
        ex = s * ihy * iyx, ey = s * ihy * iyy, fx = ixx, fy = ixy, half = ihx;
    }
    double v1x = icx + ex - half * fx, v1y = icy + ey - half * fy;
    double v2x = icx + ex + half * fx, v2y = icy + ey + half * fy;

    /* Clip it to the slab of the reference face (tangent coordinates -h..h about rc). */
    double t1 = ux * (v1x - rcx) + uy * (v1y - rcy), t2 = ux * (v2x - rcx) + uy * (v2y - rcy);
    double px[2], py[2];
    int m = 0;
    if (t1 != t2) {
        double u1 = (-h - t1) / (t2 - t1), u2 = (h - t1) / (t2 - t1);
        double lo = fmax(0.0, fmin(u1, u2)), hi = fmin(1.0, fmax(u1, u2));
        if (lo <= hi) {
            px[m] = lo <= 0.0 ? v1x : v1x + lo * (v2x - v1x);
            py[m++] = lo <= 0.0 ? v1y : v1y + lo * (v2y - v1y);
            if (hi > lo) {
                px[m] = hi >= 1.0 ? v2x : v1x + hi * (v2x - v1x);
                py[m++] = hi >= 1.0 ? v2y : v1y + hi * (v2y - v1y);
            }
        } else {
            bool first = t1 < -h ? t1 > t2 : t1 < t2;
            px[m] = first ? v1x : v2x;
            py[m++] = first ? v1y : v2y;
        }
    } else {
        bool first = nx * v1x + ny * v1y <= nx * v2x + ny * v2y;
        px[m] = first ? v1x : v2x;
        py[m++] = first ? v1y : v2y;
    }

    /* Keep the ends at or below the face (the deepest always), midway between the surfaces. */
    double depth = -fmax(s_a, s_b);
    double sep[2];
    int deepest = 0;
    for (int i = 0; i < m; i++) {
        sep[i] = nx * (px[i] - rcx) + ny * (py[i] - rcy) - front;
        if (sep[i] < sep[deepest])
            deepest = i;
    }
    int k = 0;
    for (int i = 0; i < m; i++) {
        if (sep[i] > 0 && i != deepest)
            continue;
        c->points[k].x = px[i] - 0.5 * sep[i] * nx;
        c->points[k].y = py[i] - 0.5 * sep[i] * ny;
        double pd = sep[i] < 0 ? -sep[i] : 0.0;
        c->point_depths[k++] = pd < depth ? pd : depth;
    }
    c->count = k;
    c->depth = depth;
    c->normal.x = ref_a ? nx : -nx;
    c->normal.y = ref_a ? ny : -ny;
    return k;
}

} // namespace

#endif /* C2D_NARROW_FLOOR_H */
