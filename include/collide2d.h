/*
 * collide2d.h - exact 2D collision detection for games. The whole public C API.
 *
 * Shapes are opaque handles created and destroyed by the library: circles, rectangles (rotated about
 * their centre), convex polygons with any number of vertices, capsules and segments. Every shape has a
 * position and an angle in radians; all numbers are doubles. Queries answer overlap, contact (normal,
 * depth, points), point containment, closest points, distance and ray casts for every pair of kinds.
 *
 * Conventions
 *  - Every fallible call returns a c2d_status; C2D_OK is 0. On any other status nothing was changed and
 *    no out-parameter was written. Bad input (NULL, NaN, infinities, non-positive sizes, degenerate or
 *    non-convex point lists) is answered with a status; the library never aborts, exits or prints.
 *  - "No contact" is a normal result (C2D_OK with a zero count / zero flag), not an error.
 *  - Normals: a pair call (c2d_collide, c2d_sweep, c2d_sweep_motion, c2d_distance) points from shape A
 *    (the first argument) to shape B. Every call on a container (a static set or a world: moves, ball
 *    steps, casts, contact records, ray casts and their hits) reports the unit normal of the surface
 *    met, pointing towards the mover (or the ray's origin): out of the shape that was met. The one call
 *    that does not, c2d_static_set_sweep, keeps the pair convention (mover as A) and is superseded by
 *    c2d_static_set_cast. depth >= 0 means overlap; touching (depth 0) counts as overlap, for every pair
 *    of kinds.
 *  - Time and velocities: every velocity (a ball's, a set member's, a world entry's, a motion's, a
 *    result's) is per unit of time, the unit of the dt the calls take (seconds, if dt is in seconds).
 *    A ball step and a timed move (the _timed calls) last dt; the untimed moves, casts and sweeps last
 *    one unit of time (their displacement is a velocity over one unit). So one moving platform has one
 *    velocity whatever meets it, and c2d_static_set_advance(set, dt) places it where the calls swept it.
 *  - Positions: a shape's position is its reference point (a rectangle's or circle's centre, a polygon's
 *    centroid, see the constructors); a ball's is its centre. A contact record's position is where the
 *    mover's position was at the contact.
 *  - Names of what was met: a static set's shape by its index (0-based, as given to c2d_static_set_new)
 *    and its user value (c2d_static_set_set_user); a world entry by its id (never 0) and user value; a
 *    shape of a world's level (c2d_world_set_level) by id 0 and its index and user value in the level.
 *  - Angles are radians, counter-clockwise in a y-up frame (clockwise on a y-down screen); the direction
 *    of the y axis does not matter to any result.
 *  - Results are plain structs the caller owns; they never point into library memory (one exception,
 *    said so where it is declared: c2d_static_set_get_shape lends a read-only view of a set's shape).
 *  - No global mutable state. A shape may be read from several threads at once; writes to a shape must
 *    not overlap any other access to that shape.
 *  - Coordinates, sizes and displacements must be finite with magnitude at most C2D_MAX_COORDINATE, so
 *    that no intermediate product overflows; larger values are rejected with C2D_ERR_RANGE.
 */
#ifndef COLLIDE2D_H
#define COLLIDE2D_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup base Version, export macro and status codes
 *  @{ */

#define C2D_VERSION_MAJOR 1
#define C2D_VERSION_MINOR 0
#define C2D_VERSION_PATCH 0
/** The version as one number, MAJOR * 10000 + MINOR * 100 + PATCH, for compile-time comparisons. */
#define C2D_VERSION_NUMBER (C2D_VERSION_MAJOR * 10000 + C2D_VERSION_MINOR * 100 + C2D_VERSION_PATCH)

/* C2D_API marks every exported function. Building the library defines C2D_BUILD; a static build of
 * the library into the caller (the Lua module does this) defines C2D_STATIC. */
#if defined(C2D_STATIC)
#define C2D_API
#elif defined(_WIN32)
#if defined(C2D_BUILD)
#define C2D_API __declspec(dllexport)
#else
#define C2D_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) && defined(C2D_BUILD)
#define C2D_API __attribute__((visibility("default")))
#else
#define C2D_API
#endif

/** Largest magnitude accepted for a coordinate, size, radius, displacement or angle. */
#define C2D_MAX_COORDINATE 1e15

/** Largest number of points a polygon may be built from. */
#define C2D_MAX_POLYGON_POINTS 65536

/** Status of a call. C2D_OK is 0; every other value means the call changed nothing. */
typedef enum c2d_status {
    C2D_OK = 0,              /**< success (including "no contact" and "no hit") */
    C2D_ERR_NULL = 1,        /**< a required pointer argument was NULL */
    C2D_ERR_NOT_FINITE = 2,  /**< a number was NaN or infinite */
    C2D_ERR_RANGE = 3,       /**< a number's magnitude exceeded C2D_MAX_COORDINATE, or a count was out of range */
    C2D_ERR_SIZE = 4,        /**< a radius, width or height was zero or negative */
    C2D_ERR_DEGENERATE = 5,  /**< fewer than 3 distinct points, all points on one line (decided exactly, with no tolerance: see c2d_polygon_new), or a zero-length segment or direction */
    C2D_ERR_NOT_CONVEX = 6,  /**< the points of a polygon do not form a convex polygon in order */
    C2D_ERR_NO_MEMORY = 7,   /**< an allocation failed */
    C2D_ERR_CAPACITY = 8,    /**< the caller's output array is too small; the needed count was still reported (see Lists) */
    C2D_ERR_NOT_SIMPLE = 9   /**< an outline or hole crosses or touches itself, a hole is not strictly inside the outline, or two holes meet */
} c2d_status;

/* Lists. Every call that returns a list into the caller's array (out, capacity, *count) follows one
 * rule: *count receives the number of items; when capacity is at least that, out[0 .. *count) receives
 * them and the call returns C2D_OK; when it is smaller, nothing is written to out and the call returns
 * C2D_ERR_CAPACITY. out NULL with capacity 0 asks for the count only: C2D_OK, with *count set, whatever
 * the count. out NULL with capacity > 0 is C2D_ERR_NULL, a negative capacity C2D_ERR_RANGE. (Moves and
 * ball steps are the exception: they write as many contacts as fit and count them all in
 * result->count; their _report forms hand every one over.) */

/** The library's version at run time, as C2D_VERSION_NUMBER. */
C2D_API int c2d_version(void);

/** The library's version at run time as a string, "MAJOR.MINOR.PATCH". Static storage; never NULL. */
C2D_API const char *c2d_version_string(void);

/** A short English description of a status ("ok", "NULL argument", ...). Static storage; never NULL,
 *  also for values that are not statuses ("unknown status"). */
C2D_API const char *c2d_status_string(c2d_status status);

/** @} */

/** @defgroup types Value types
 *  @{ */

/** A 2D vector or point. */
typedef struct c2d_vec2 {
    double x; /**< x coordinate */
    double y; /**< y coordinate */
} c2d_vec2;

/** An axis-aligned bounding box; min <= max on both axes. */
typedef struct c2d_aabb {
    c2d_vec2 min; /**< lower corner */
    c2d_vec2 max; /**< upper corner */
} c2d_aabb;

/** The kind of a shape. 0 is not a kind. */
typedef enum c2d_shape_type {
    C2D_SHAPE_NONE = 0,    /**< not a shape (returned for NULL) */
    C2D_SHAPE_CIRCLE = 1,  /**< a disc: centre and radius */
    C2D_SHAPE_RECT = 2,    /**< a rectangle, rotated about its centre */
    C2D_SHAPE_POLYGON = 3, /**< a convex polygon */
    C2D_SHAPE_CAPSULE = 4, /**< a segment swollen by a radius: a stadium */
    C2D_SHAPE_SEGMENT = 5, /**< a line segment (no area; both sides are surface) */
    C2D_SHAPE_CHAIN = 6,   /**< a polyline of segments, open or closed, whose joints are never surface */
    C2D_SHAPE_CONCAVE = 7  /**< a simple polygon, concave or not, optionally with holes */
} c2d_shape_type;

/** An opaque shape handle, created by a c2d_*_new call and freed by c2d_shape_destroy. */
typedef struct c2d_shape c2d_shape;

/** The contact between two overlapping shapes A and B. */
typedef struct c2d_contact {
    /** Unit vector from A towards B: moving B by depth * normal (or A by -depth * normal) separates
     *  them to touching. Zero when count is 0. */
    c2d_vec2 normal;
    /** Penetration depth (length of the minimum translation vector), >= 0. 0 when count is 0. */
    double depth;
    /** Number of contact points: 0 (no contact), 1 or 2. */
    int count;
    /** Contact points, each midway between the two surfaces along the normal. */
    c2d_vec2 points[2];
    /** Penetration of the surfaces along the normal at each point (<= depth). */
    double point_depths[2];
} c2d_contact;

/** Closest points between two shapes. */
typedef struct c2d_distance_result {
    /** Signed distance between the surfaces: > 0 apart, 0 touching, < 0 overlapping (then it is
     *  minus the contact depth). */
    double distance;
    /** Point of A's surface closest to B (the deepest point of A inside B when overlapping). */
    c2d_vec2 point_a;
    /** Point of B's surface closest to A (the deepest point of B inside A when overlapping). */
    c2d_vec2 point_b;
    /** Unit vector from A towards B: the direction in which moving B increases the distance fastest. */
    c2d_vec2 normal;
} c2d_distance_result;

/** The result of a ray cast against one shape. */
typedef struct c2d_ray_hit {
    /** 1 when the ray hit the shape, else 0 (and the other fields are 0). */
    int hit;
    /** Ray parameter of the hit: point = origin + t * direction, 0 <= t <= max_t. With a unit
     *  direction, t is the distance travelled. */
    double t;
    /** Where the ray first meets the shape's surface. */
    c2d_vec2 point;
    /** Unit surface normal at the hit, facing the ray. For a ray that starts inside the shape the hit
     *  is at t = 0 and the normal is minus the ray's unit direction. */
    c2d_vec2 normal;
} c2d_ray_hit;

/** @} */

/** @defgroup shapes Creating and destroying shapes
 *  Each constructor writes a new handle to *out and returns C2D_OK, or returns a status and leaves *out
 *  untouched. The position of every shape is its reference point: the centre of a circle, rectangle,
 *  capsule or segment, and the centroid (centre of area) of a polygon. A new shape has angle 0, except
 *  a rectangle created with an angle.
 *  @{ */

/** A circle of radius r > 0 centred at (x, y). */
C2D_API c2d_status c2d_circle_new(double x, double y, double r, c2d_shape **out);

/** A w by h rectangle (w, h > 0) centred at (cx, cy), rotated by angle radians about its centre.
 *  Its vertices start at the corner (-w/2, -h/2) of its own frame and run counter-clockwise. */
C2D_API c2d_status c2d_rect_new(double cx, double cy, double w, double h, double angle, c2d_shape **out);

/** A convex polygon through the n points, given in order (either winding; stored counter-clockwise).
 *  Whether the points are refused is decided exactly, by comparing coordinates and by the sign of the
 *  exact orientation of three points as given, with no tolerance: however thin a polygon is (a
 *  triangle 1e6 long and 1e-6 high, a sliver 1e15 long and 2 wide) it is accepted, and
 *   - fewer than 3 distinct points, or all points exactly on one line, gives C2D_ERR_DEGENERATE;
 *   - an outline that turns both ways, doubles back along itself or winds more than once is REJECTED
 *     with C2D_ERR_NOT_CONVEX (use c2d_hull_new to wrap arbitrary points);
 *   - n outside 0..C2D_MAX_POLYGON_POINTS gives C2D_ERR_RANGE.
 *  Repeated consecutive points and points in the middle of a straight edge are dropped, and so is a
 *  vertex where the outline goes on (does not turn back) by an angle whose sine is at most 1e-12, as
 *  long as three vertices are left: such a vertex lies within 1e-12 of its shorter edge's length of
 *  the edge that replaces it (a point 4e-15 below the long edge of a 1e15 sliver), and the contact
 *  code, which tells edges apart by their normals, could not tell two edges that close to parallel
 *  apart. A sharp tip is kept however sharp.
 *  The points are in world coordinates: the new polygon's position is their centroid and its angle is
 *  0. Vertices are kept relative to the centroid, each rounded to the spacing of doubles at the
 *  polygon's size S (about 1e-16 S). A polygon thinner than that rounding may lose a vertex that
 *  rounds onto or inside the line of its neighbours (its core is the hull of the rounded vertices),
 *  and one whose every vertex rounds onto one line is C2D_ERR_DEGENERATE: that needs a width of a few
 *  times 1e-16 S or less. In a sliver far longer than its shortest edge L, that rounding tilts the
 *  short edges: their lines, followed across the polygon, stand within about 1e-16 S * S / L of where
 *  the exact points put them (still 1e-16 S for ordinary shapes). */
C2D_API c2d_status c2d_polygon_new(const c2d_vec2 *points, int n, c2d_shape **out);

/** The convex hull of n points in any order, as a polygon (see c2d_polygon_new for the position, the
 *  vertices dropped, and C2D_ERR_DEGENERATE and C2D_ERR_RANGE: the hull is degenerate exactly when
 *  the points are all on one line, decided exactly). */
C2D_API c2d_status c2d_hull_new(const c2d_vec2 *points, int n, c2d_shape **out);

/** A capsule: every point within r > 0 of the segment a-b (a != b). Position: the segment's midpoint. */
C2D_API c2d_status c2d_capsule_new(c2d_vec2 a, c2d_vec2 b, double r, c2d_shape **out);

/** A segment from a to b (a != b). Position: its midpoint. */
C2D_API c2d_status c2d_segment_new(c2d_vec2 a, c2d_vec2 b, c2d_shape **out);

/** Flags of c2d_chain_new. */
#define C2D_CHAIN_CLOSED 1    /**< the last point joins the first */
#define C2D_CHAIN_ONE_SIDED 2 /**< in static sets and world moves, each segment blocks only from its right */

/** A chain (a polyline: Box2D's chain shape) through the n points in order: n - 1 segments, or n with
 *  C2D_CHAIN_CLOSED. Repeated consecutive points are dropped; at least 2 distinct points are needed
 *  (3 closed), else C2D_ERR_DEGENERATE. The joints between its segments are never surface: a box
 *  sliding or a ball rolling along a floor of many segments never catches on a joint, and each joint
 *  is a corner only where the chain really turns. With C2D_CHAIN_ONE_SIDED, moves, ball steps and
 *  sweeps through a static set or world holding the chain are blocked by each segment only from its
 *  right-hand side (for a counter-clockwise closed chain, from outside), as c2d_static_set_set_one_way,
 *  and the sides turn with the chain when a set re-places it (until c2d_static_set_set_one_way gives
 *  the whole chain one direction); the pair queries see both sides. A chain has no inside: the contact
 *  of two chains pushes them to where neither crosses the other, through a joint, at a joint of both
 *  or along a stretch they share (which may leave one inside the other's loop). Its position is the
 *  centre of its points' bounding box. */
C2D_API c2d_status c2d_chain_new(const c2d_vec2 *points, int n, int flags, c2d_shape **out);

/** A concave polygon: the region inside the outline's n points (either winding) and outside each of
 *  the hole_count holes (holes[i] has hole_counts[i] points; holes and hole_counts may be NULL when
 *  hole_count is 0). It is split into few convex parts (c2d_shape_get_part_count) whose shared edges
 *  are seams, and it answers every query as one shape. Repeated points and points in the middle of a
 *  straight run are dropped. Every decision is exact (coordinates compared, orientations of three
 *  points as given), with no tolerance: a valid ring is accepted however thin or near-collinear, and
 *  anywhere within C2D_MAX_COORDINATE. C2D_ERR_NOT_SIMPLE for an outline or hole that crosses or
 *  touches itself, a hole not strictly inside the outline, or holes that meet; C2D_ERR_DEGENERATE for a
 *  ring of fewer than 3 distinct points or all exactly on one line, or for a region so thin that,
 *  measured from its centroid (where its parts are kept, rounded as c2d_polygon_new says), every part
 *  rounds onto one line (a width of a few times 1e-16 of its size or less); a part that alone rounds
 *  flat is left out, its neighbours joining across it. Its position is the centroid of its area; its
 *  vertices (c2d_shape_get_vertices) are the outline's, counter-clockwise. */
C2D_API c2d_status c2d_concave_new(const c2d_vec2 *outline, int n, const c2d_vec2 *const *holes,
                                   const int *hole_counts, int hole_count, c2d_shape **out);

/** The number of convex parts of a shape: 1 for the convex kinds, the segments of a chain, the parts of
 *  a concave polygon. */
C2D_API c2d_status c2d_shape_get_part_count(const c2d_shape *shape, int *out);

/** The placed vertices of part k (0 .. part count - 1), counter-clockwise, as c2d_shape_get_vertices
 *  reports them for a shape of one part (count and capacity work the same way). */
C2D_API c2d_status c2d_shape_get_part_vertices(const c2d_shape *shape, int k, c2d_vec2 *out, int capacity,
                                               int *count);

/** A new, independent copy of a shape (kind, geometry, position and angle). */
C2D_API c2d_status c2d_shape_clone(const c2d_shape *shape, c2d_shape **out);

/** Frees a shape. NULL is ignored. The handle must not be used afterwards. */
C2D_API void c2d_shape_destroy(c2d_shape *shape);

/** @} */

/** @defgroup transform Reading and moving shapes
 *
 *  Placing a shape is cheap, whatever its kind: a shape keeps its geometry in its own frame with the
 *  sine and cosine of its angle, so setting a position stores two numbers, and setting an angle adds
 *  one sine and cosine (none for a circle). Nothing is rewritten per vertex; queries work in one
 *  shape's frame. A shape is one allocation aligned to a 64-byte cache line: 64 bytes for a circle,
 *  128 for a rectangle, capsule or segment, 64 + 32 per vertex for a polygon (rounded up to 64).
 *  @{ */

/** The kind of a shape, or C2D_SHAPE_NONE for NULL. */
C2D_API c2d_shape_type c2d_shape_get_type(const c2d_shape *shape);

/** The shape's position (see the constructors for what it is). */
C2D_API c2d_status c2d_shape_get_position(const c2d_shape *shape, c2d_vec2 *out);

/** The shape's angle in radians, as last set (it is not wrapped into a range). */
C2D_API c2d_status c2d_shape_get_angle(const c2d_shape *shape, double *out);

/** Places the shape's position at p. */
C2D_API c2d_status c2d_shape_set_position(c2d_shape *shape, c2d_vec2 p);

/** Sets the shape's angle (radians), turning it about its position. */
C2D_API c2d_status c2d_shape_set_angle(c2d_shape *shape, double angle);

/** Sets position and angle in one call. */
C2D_API c2d_status c2d_shape_set_transform(c2d_shape *shape, c2d_vec2 p, double angle);

/** Moves the shape by d. C2D_ERR_RANGE if the new position would exceed C2D_MAX_COORDINATE. */
C2D_API c2d_status c2d_shape_move(c2d_shape *shape, c2d_vec2 d);

/** Turns the shape by delta radians about its position. */
C2D_API c2d_status c2d_shape_rotate(c2d_shape *shape, double delta);

/** The tight axis-aligned bounding box of the shape as placed now. */
C2D_API c2d_status c2d_shape_get_aabb(const c2d_shape *shape, c2d_aabb *out);

/** The shape's radius: the circle's or capsule's radius, 0 for rectangles, polygons and segments. */
C2D_API c2d_status c2d_shape_get_radius(const c2d_shape *shape, double *out);

/** The shape's vertices in world coordinates, counter-clockwise: 4 for a rectangle, n for a polygon,
 *  the 2 end points for a capsule or segment, the centre (1) for a circle. *count receives the number
 *  of vertices, into out as every list is (see Lists at the top). */
C2D_API c2d_status c2d_shape_get_vertices(const c2d_shape *shape, c2d_vec2 *out, int capacity, int *count);

/** @} */

/** @defgroup queries Queries between shapes
 *  Every function accepts every pair of kinds, in both orders, and the two orders agree: the same
 *  answer with the normal turned round (and A's and B's points exchanged). They fail only with
 *  C2D_ERR_NULL, or with C2D_ERR_NO_MEMORY when both shapes are polygons of more than 16 vertices
 *  (the smaller one is carried into the other's frame, on the heap beyond that size).
 *  @{ */

/** *out = 1 if A and B overlap or touch, else 0. Cheaper than c2d_collide. */
C2D_API c2d_status c2d_overlap(const c2d_shape *a, const c2d_shape *b, int *out);

/** The contact between A and B: out->count is 0 when they are apart, else 1 or 2 with the normal
 *  (A to B), the depth and the contact points. Two segments crossing at one point report depth as the
 *  shortest push that separates them. */
C2D_API c2d_status c2d_collide(const c2d_shape *a, const c2d_shape *b, c2d_contact *out);

/** Closest points and signed distance between A and B (see c2d_distance_result). */
C2D_API c2d_status c2d_distance(const c2d_shape *a, const c2d_shape *b, c2d_distance_result *out);

/** @} */

/** @defgroup points Point and ray queries on one shape
 *  @{ */

/** *out = 1 if the point p is inside the shape or on its boundary, else 0. A segment contains only
 *  the points exactly on it (as placed: see c2d_shape_get_vertices), decided in exact arithmetic. */
C2D_API c2d_status c2d_contains_point(const c2d_shape *shape, c2d_vec2 p, int *out);

/** The point of the shape's boundary nearest to p, and the signed distance from p to the boundary
 *  (negative when p is inside). Either out pointer may be NULL, not both. */
C2D_API c2d_status c2d_closest_point(const c2d_shape *shape, c2d_vec2 p, c2d_vec2 *out_point,
                                     double *out_distance);

/** Casts the ray origin + t * direction, 0 <= t <= max_t, against the shape (max_t may be +infinity;
 *  direction must not be zero). The hit is the first point of the shape on the ray; touching counts.
 *  Against a segment (as placed) every decision is exact: a ray through an end point hits exactly that
 *  point, one that passes it by any margin misses, and a ray along the segment meets its nearer end.
 *  Against other kinds, a ray that runs within rounding of the boundary (along an edge, grazing a
 *  corner) may hit or miss; a hit lies within rounding of the boundary, and no part of the ray before
 *  it enters the shape by more than rounding. */
C2D_API c2d_status c2d_raycast(const c2d_shape *shape, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                               c2d_ray_hit *out);

/** @} */

/* ---- swept collision and responses: BEGIN (sweep/resolve section) ---- */

/** @defgroup sweep Swept collision, responses and the ball stepper
 *  Shapes here move by straight displacements (no rotation during a motion). Times of impact are
 *  exact for every pair of kinds: the motion of A against B is the ray of the relative displacement
 *  cast against the rounded Minkowski difference of their cores, whose corners are circles solved in
 *  parametric form. "Touching" means closer than a tolerance of 1e-12 times (1 + the largest
 *  coordinate magnitude involved: of the two shapes that meet and their motions; in a static set, of
 *  the mover and the member it meets, whatever else the set holds); touching shapes that move apart
 *  or along each other do not hit.
 *
 *  A static set holds copies of shapes handed in together (bricks, tiles, walls) with a grid for speed
 *  and with seam information: an edge shared with a neighbour (a row of bricks, a tile floor) and a
 *  corner where the surface of the union goes on flat are not surface, so nothing moving along or
 *  across a seam ever reacts to them. Seams are found automatically between shapes of the set that
 *  touch (radius-0 kinds: rectangles, polygons, segments); c2d_static_set_mark_neighbours adds pairs
 *  with a larger gap allowance. Sweeps, push-outs, moves and ball steps only read a set, so they may
 *  run from several threads at once; c2d_static_set_set_enabled and c2d_static_set_mark_neighbours
 *  write it.
 *  @{ */

/** What a sweep found. */
typedef enum c2d_toi_state {
    C2D_TOI_NONE = 0,   /**< no contact during the motion */
    C2D_TOI_HIT = 1,    /**< first contact at fraction t of the motion (t = 0: touching and moving in) */
    C2D_TOI_OVERLAP = 2 /**< already overlapping at t = 0, deeper than touching */
} c2d_toi_state;

/** The time of impact of two moving shapes. */
typedef struct c2d_toi {
    /** C2D_TOI_NONE, C2D_TOI_HIT or C2D_TOI_OVERLAP. */
    c2d_toi_state state;
    /** Fraction of the displacements at first contact, in [0, 1]; 0 for an overlap, 1 for none. */
    double t;
    /** Unit contact normal from A to B at time t (for an overlap: moving B by depth * normal
     *  separates them). Zero for none. */
    c2d_vec2 normal;
    /** The contact point at time t, on both surfaces (for an overlap: midway between the deepest
     *  points). Zero for none. */
    c2d_vec2 point;
    /** Penetration depth at t = 0 for an overlap, else 0. */
    double depth;
} c2d_toi;

/** Time of impact of A moving by da and B moving by db (either may be zero) over the same time. */
C2D_API c2d_status c2d_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out);

/** A rigid motion over one unit of time (a sweep's, or a step's dt): the shape moves by velocity * t
 *  and turns by angular_velocity * t radians (counter-clockwise positive) about its pivot, which moves
 *  with it. pivot is a point of the shape, in its own frame (as its vertices are given relative to its
 *  position, turning with it): zero turns the shape about its position; a flipper 110 long whose
 *  position is its middle and whose hinge is its left end has pivot (-55, 0) at every angle. A point x
 *  of the shape goes to c + velocity t + R(angular_velocity t) (x - c), where c is where the pivot
 *  stands at time 0. A zeroed struct (or NULL) stands still. */
typedef struct c2d_motion {
    c2d_vec2 velocity;       /**< the pivot's displacement per unit of time */
    double angular_velocity; /**< radians per unit of time */
    c2d_vec2 pivot;          /**< the point turned about, in the shape's own frame */
} c2d_motion;

/** Time of impact of A and B each moving by its rigid motion (either may be NULL: standing still) over
 *  one unit of time, for any kinds (chains and concave polygons too): *out as c2d_sweep's, with the
 *  normal and point at time t. Without turning it is c2d_sweep of the two velocities, bit for bit. An
 *  overlap at t = 0 is reported as c2d_sweep reports it. Otherwise the time is never after the first
 *  contact (touching within the same tolerance as c2d_sweep; a touch that parts or slides is no
 *  contact): it advances by steps bounded by how fast any point of either shape can approach the
 *  other, so a turn of any speed cannot step over a thin shape. A motion that grazes the other shape
 *  within a hair for most of the unit of time may be answered as a contact a little early (after 200
 *  steps), never late. C2D_ERR_NOT_FINITE or C2D_ERR_RANGE for a motion's number (or where its pivot stands)
 *  beyond C2D_MAX_COORDINATE. */
C2D_API c2d_status c2d_sweep_motion(const c2d_shape *a, const c2d_motion *ma, const c2d_shape *b,
                                    const c2d_motion *mb, c2d_toi *out);

/** An opaque set of static shapes with seam information and a grid. */
typedef struct c2d_static_set c2d_static_set;

/** Options of c2d_static_set_new; a zeroed struct (or NULL) means the defaults. */
typedef struct c2d_static_set_options {
    /** Gap (and misalignment) up to which two edges count as one shared edge when seams are found
     *  automatically. 0 means, for each pair of shapes, 1e-9 times (1 + the largest coordinate
     *  magnitude of those two), so a shape far away or very large elsewhere in the set changes nothing
     *  between small tiles. At most a quarter of an edge's length is used for that edge, and at a
     *  corner a quarter of the longer edge there. A gap counted as a seam hides the faces beside it
     *  but stays open: keep the tolerance below the size of your movers. */
    double seam_tolerance;
    /** Nonzero: find no seams automatically; only pairs marked with c2d_static_set_mark_neighbours. */
    int no_auto_seams;
} c2d_static_set_options;

/** A new static set holding copies of the n shapes (the shapes may be changed or destroyed
 *  afterwards without affecting the set). Index i of the set is shapes[i]. n may be 0. A chain or
 *  concave polygon is one index too; the set holds its convex parts, whose joints are always seams.
 *  Movers of the set's calls must be convex kinds (C2D_ERR_NOT_CONVEX for a chain or concave one). */
C2D_API c2d_status c2d_static_set_new(const c2d_shape *const *shapes, int n, const c2d_static_set_options *options,
                                      c2d_static_set **out);

/** Frees a static set. NULL is ignored. */
C2D_API void c2d_static_set_destroy(c2d_static_set *set);

/** The number of shapes in the set (enabled or not). */
C2D_API c2d_status c2d_static_set_get_count(const c2d_static_set *set, int *out);

/** Declares shapes i and j neighbours: edges of one lying within tolerance (> 0) of an opposite edge of
 *  the other become seams, as do the corners between them. Use it for level data with small gaps. */
C2D_API c2d_status c2d_static_set_mark_neighbours(c2d_static_set *set, int i, int j, double tolerance);

/** Enables (nonzero) or disables (0) shape i: a disabled shape is ignored by every query, and the seams
 *  of its neighbours are recomputed (a broken brick exposes the faces of the bricks beside it). */
C2D_API c2d_status c2d_static_set_set_enabled(c2d_static_set *set, int i, int enabled);

/** *out = 1 if edge e of shape i (from its vertex e to vertex e + 1, in the order of
 *  c2d_shape_get_vertices) is a seam, hidden inside the union of the set, else 0. For a chain or
 *  concave polygon, the edges are those of its parts, part 0's first (c2d_shape_get_part_vertices). */
C2D_API c2d_status c2d_static_set_is_seam(const c2d_static_set *set, int i, int e, int *out);

/** Re-places shape i of the set at position (its reference point, as c2d_shape_set_transform) and
 *  angle: a moving platform, a paddle, a door. Only the seams around its old and new places are
 *  recomputed, so this is cheap; the set's other shapes are untouched. A re-placed shape leaves the
 *  set's grid and is looked at by every query (fine for the few shapes a game moves). C2D_ERR_RANGE
 *  (changing nothing) when the shape would reach beyond C2D_MAX_COORDINATE. Not for use while
 *  another call reads the set. */
C2D_API c2d_status c2d_static_set_set_transform(c2d_static_set *set, int i, c2d_vec2 position, double angle);

/** Where shape i of the set stands now: its position and angle. Either out pointer may be NULL, not both. */
C2D_API c2d_status c2d_static_set_get_transform(const c2d_static_set *set, int i, c2d_vec2 *out_position,
                                                double *out_angle);

/** Gives shape i of the set a velocity (per unit of time; zero, the default, for none): during every
 *  later sweep, move and ball step the shape moves from where it stands by velocity * time (a move
 *  and a sweep last one unit of time, a ball step dt), and the motion is swept against the mover's
 *  own, so a fast paddle never passes through a ball. The calls do not move it: re-place it after the
 *  step with c2d_static_set_set_transform (position + velocity * dt). A mover it meets responds to the
 *  relative motion: a bounce reflects the relative velocity (a moving paddle speeds a ball up), a
 *  slide pushes the mover along the contact normal only (a crate on a rising platform rises with
 *  it; one riding a platform that moves sideways or sinks must add the platform's motion to its
 *  own), and a touch stops it relative to the shape: it goes on with the shape's velocity. Shapes
 *  with different velocities never share seams. */
C2D_API c2d_status c2d_static_set_set_velocity(c2d_static_set *set, int i, c2d_vec2 velocity);

/** Shape i's velocity (zero unless set). */
C2D_API c2d_status c2d_static_set_get_velocity(const c2d_static_set *set, int i, c2d_vec2 *out);

/** Gives shape i of the set a rigid motion: its velocity (as c2d_static_set_set_velocity) and an
 *  angular velocity about its pivot, a point of the shape in its own frame (see c2d_motion; it stays
 *  with the shape when c2d_static_set_set_transform re-places it). A flipper, a spinner, a door, a
 *  turning platform. During every later sweep, move and ball step the shape turns from where it
 *  stands (a move and a sweep last one unit of time, a ball step dt) and the turn is swept against the
 *  mover as c2d_sweep_motion sweeps it, so a fast flipper never passes through a ball. The calls do
 *  not move it: re-place it after the step (the angle plus angular_velocity * dt, about the pivot).
 *  A mover it meets responds to the velocity of its surface at the contact point, v + w x r: a ball
 *  at rest struck by a flipper's face at distance d from the hinge leaves along the face's normal at
 *  (1 + e) w d for restitution e. A mover the turning face keeps pushing (8 contacts in a row with it)
 *  rides it for the rest of the step, swept along the arc against the other shapes (it stops where it
 *  meets one; a mover other than a ball, which a plain move keeps at its angle, is swept as the disc
 *  about its position that holds it at every angle, so it stops a little early). NULL or a zeroed motion stands still. A turning shape shares no seams with others (a
 *  chain's own joints stay seams). */
C2D_API c2d_status c2d_static_set_set_motion(c2d_static_set *set, int i, const c2d_motion *motion);

/** Shape i's motion (all zero unless set). */
C2D_API c2d_status c2d_static_set_get_motion(const c2d_static_set *set, int i, c2d_motion *out);

/** Re-places every shape of the set that has a velocity or a motion where that motion takes it in dt
 *  (>= 0) units of time: moved by velocity * dt and turned by angular_velocity * dt about its pivot,
 *  exactly as the set's calls swept it. Call it after the step, once per frame, instead of computing
 *  each pose for c2d_static_set_set_transform. C2D_ERR_RANGE (changing nothing) when a shape would
 *  reach beyond C2D_MAX_COORDINATE or dt < 0. */
C2D_API c2d_status c2d_static_set_advance(c2d_static_set *set, double dt);

/** Makes shape i one-way (a platform a player jumps up through): it blocks moves, ball steps and
 *  sweeps only where the mover meets it from the side the direction points to (contact normal n with
 *  n . direction > 0: from above for direction (0, 1) in a y-up frame, (0, -1) on a y-down screen),
 *  and only when the mover does not already overlap it at the start of the motion (or of the leg after
 *  a contact); from below and from the sides it passes through. Push-outs ignore one-way shapes.
 *  direction need not be unit; zero makes the shape solid from every side again (the default). Seams
 *  join only shapes with the same direction, so a row of one-way tiles is one flat platform. */
C2D_API c2d_status c2d_static_set_set_one_way(c2d_static_set *set, int i, c2d_vec2 direction);

/** Shape i's one-way direction as a unit vector, or zero when it blocks from every side. */
C2D_API c2d_status c2d_static_set_get_one_way(const c2d_static_set *set, int i, c2d_vec2 *out);

/** Gives shape i of the set a user value (an index into your own array, a pointer), as c2d_world_add
 *  gives a world entry one: the full contact records of the set's moves and ball steps (the _records and
 *  _report calls) carry it in c2d_contact_record.user, so a game tells a bumper from a wall without
 *  keeping ranges of indices. 0, the default, for none. The value is the caller's: the set never reads
 *  through it. C2D_ERR_NO_MEMORY (changing nothing) when the first nonzero value of a set finds no room. */
C2D_API c2d_status c2d_static_set_set_user(c2d_static_set *set, int i, uintptr_t user);

/** Shape i's user value (0 unless set). */
C2D_API c2d_status c2d_static_set_get_user(const c2d_static_set *set, int i, uintptr_t *out);

/** *out = 1 if shape i is enabled (c2d_static_set_set_enabled; the default), else 0. */
C2D_API c2d_status c2d_static_set_get_enabled(const c2d_static_set *set, int i, int *out);

/** *out receives the set's own copy of shape i as it stands now, read-only: the shape handed to
 *  c2d_static_set_new, placed where c2d_static_set_set_transform and c2d_static_set_advance put it.
 *  Draw a level from it without keeping copies of your own: c2d_shape_get_type, c2d_shape_get_position,
 *  c2d_shape_get_angle, c2d_shape_get_radius, c2d_shape_get_vertices and c2d_shape_get_part_vertices
 *  (and any call that takes a const shape) read it as they read any shape. Unlike the results of other
 *  calls, this handle points into the set: it stays valid, and the same for shape i, until the set is
 *  destroyed, and follows the shape as the set re-places it. Never change it, destroy it or add it to a
 *  world (reading it while another call re-places the shape is a data race, as for any shape). */
C2D_API c2d_status c2d_static_set_get_shape(const c2d_static_set *set, int i, const c2d_shape **out);

/* The queries of a static set: the world's (c2d_world_query_aabb, _query_point, _query_shape,
 * c2d_world_raycast, _raycast_all) with the same arguments but the filter, the same statuses, and
 * answers that name the set's shapes by index. Only enabled shapes are found, where they stand now
 * (c2d_static_set_set_transform and c2d_static_set_advance re-place them; motions are ignored, as the
 * world's queries ignore its entries' motions). Each answer is the public call's (c2d_overlap,
 * c2d_contains_point, c2d_raycast) on the set's own copy of each shape (c2d_static_set_get_shape), a
 * chain or a concave polygon as one shape; the set's grid only picks which shapes to ask. Lists are
 * in index order (ray hits by t, ties by index), and follow the world's rules: NULL and capacity 0 ask
 * for the count only; a capacity too small gives C2D_ERR_CAPACITY with *count the number found and
 * nothing written; any other error writes nothing. They only read the set (threads as for sweeps). */

/** A shape of a static set found by a query. */
typedef struct c2d_set_hit {
    int index;      /**< the shape's index in the set (0-based, as c2d_static_set_new's array) */
    uintptr_t user; /**< its user value (c2d_static_set_set_user; 0 unless given) */
} c2d_set_hit;

/** A shape of a static set hit by a ray. */
typedef struct c2d_set_ray_hit {
    int index;       /**< the shape's index in the set, or -1 in c2d_static_set_raycast's answer to a miss */
    uintptr_t user;  /**< its user value */
    c2d_ray_hit ray; /**< where and how the ray meets the shape (ray.hit is 1 for a hit) */
} c2d_set_ray_hit;

/** The enabled shapes of the set that overlap or touch the axis-aligned box (exact, as
 *  c2d_world_query_aabb). The box needs min <= max on both axes (else C2D_ERR_RANGE); a zero-size box
 *  is allowed (a point), as is one of zero width or height (a segment). */
C2D_API c2d_status c2d_static_set_query_aabb(const c2d_static_set *set, c2d_aabb box, c2d_set_hit *out,
                                             int capacity, int *count);

/** The enabled shapes of the set that contain the point p (on the boundary counts; see
 *  c2d_contains_point). */
C2D_API c2d_status c2d_static_set_query_point(const c2d_static_set *set, c2d_vec2 p, c2d_set_hit *out,
                                              int capacity, int *count);

/** The enabled shapes of the set that overlap or touch `shape` (c2d_overlap; any kind, a chain or a
 *  concave polygon too). */
C2D_API c2d_status c2d_static_set_query_shape(const c2d_static_set *set, const c2d_shape *shape,
                                              c2d_set_hit *out, int capacity, int *count);

/** The first enabled shape of the set hit by the ray origin + t * direction, 0 <= t <= max_t (the
 *  arguments and statuses of c2d_world_raycast). On a hit out->ray.hit is 1; with no hit out->index is
 *  -1 and the rest of *out is zero. Of shapes hit at the same t, the lowest index wins. */
C2D_API c2d_status c2d_static_set_raycast(const c2d_static_set *set, c2d_vec2 origin, c2d_vec2 direction,
                                          double max_t, c2d_set_ray_hit *out);

/** Every enabled shape of the set hit by the ray, in order of t, ties by index (count and capacity as
 *  for the queries above). */
C2D_API c2d_status c2d_static_set_raycast_all(const c2d_static_set *set, c2d_vec2 origin, c2d_vec2 direction,
                                              double max_t, c2d_set_ray_hit *out, int capacity, int *count);

/** What a moving shape does when it meets a shape of a static set (as bump.lua's responses). */
typedef enum c2d_response {
    C2D_RESPONSE_NONE = 0,   /**< in options.response: the call's default; in options.responses: ignore the shape */
    C2D_RESPONSE_TOUCH = 1,  /**< stop at the contact */
    C2D_RESPONSE_SLIDE = 2,  /**< go on along the surface with the remaining motion */
    C2D_RESPONSE_BOUNCE = 3, /**< reflect the remaining motion (restitution, friction) */
    C2D_RESPONSE_CROSS = 4   /**< report the contact once and pass through */
} c2d_response;

/** Options of a move or ball step. c2d_move_options_default() gives the defaults; NULL means them. */
typedef struct c2d_move_options {
    /** Response to every shape of the set; C2D_RESPONSE_NONE means the call's default (slide for
     *  c2d_static_set_move, bounce for c2d_static_set_step_ball). */
    c2d_response response;
    /** NULL, or one response per shape of the set overriding response (C2D_RESPONSE_NONE there means
     *  ignore that shape). Not copied; read during the call only. */
    const c2d_response *responses;
    /** Bounce: fraction of the normal speed kept, in [0, 1]; 1 keeps the speed exactly. */
    double restitution;
    /** Bounce: Coulomb friction coefficient >= 0 against the tangential speed (0: none). */
    double friction;
} c2d_move_options;

/** The default move options: response NONE (the call's default), no per-shape responses,
 *  restitution 1, friction 0. */
C2D_API c2d_move_options c2d_move_options_default(void);

/** One contact met during a move or ball step. */
typedef struct c2d_sweep_contact {
    /** Index of the shape in the set. */
    int index;
    /** When the contact happened, as a fraction of the move (or of the step's dt), in [0, 1]. */
    double t;
    /** The contact point on the shape's surface. */
    c2d_vec2 point;
    /** Unit surface normal of the set's shape at the contact, pointing towards the mover. For a
     *  corner this is the direction from the corner to the mover at contact. */
    c2d_vec2 normal;
    /** The response applied. */
    c2d_response response;
    /** 1 when the mover started inside (overlapping deeper than touching) and was pushed out of the
     *  set's union at t = 0 (as by c2d_static_set_push_out), else 0. */
    int pushed_out;
} c2d_sweep_contact;

/** The outcome of a move or ball step. */
typedef struct c2d_move_result {
    /** How far the mover moved in all (including any push-out). */
    c2d_vec2 displacement;
    /** The motion per unit of time after the last response (the displacement, or velocity, that
     *  would continue the motion): bounced, slid, or zero after a touch. */
    c2d_vec2 velocity;
    /** Length of the path travelled (push-out excluded). */
    double travelled;
    /** Number of contacts met, including those that did not fit in the caller's array. */
    int count;
    /** 1 if the motion was cut short because it met more than 256 contacts (a mover rattling in a
     *  gap barely wider than itself), else 0. */
    int truncated;
} c2d_move_result;

/** First contact of the mover (not part of the set) moving by displacement against the enabled shapes
 *  of the set, seams excluded: *out as c2d_sweep's with A the mover and B the set's shape, and
 *  *index the shape's index (-1 when none). Superseded by c2d_static_set_cast, whose normal follows the
 *  containers' convention (towards the mover) and which names the shape's user value and where the
 *  mover stands at the contact; kept, unchanged, for existing callers. */
C2D_API c2d_status c2d_static_set_sweep(const c2d_static_set *set, const c2d_shape *mover, c2d_vec2 displacement,
                                        c2d_toi *out, int *index);

/** The displacement that takes the mover out of the union of the set's shapes to touching, or zero
 *  when it is not inside the union deeper than touching (touching is not overlapping). A mover no wider
 *  than the touching tolerance (a tiny ball, a segment) lying along a joint inside the union is inside
 *  it, though it only touches each shape; one touching the union from outside at a joint (lying across
 *  the top of two bricks, or through a chain's joint outside its turn) is not. The displacement is the
 *  shortest one among the nearest points of every surface edge and corner of the set (seams excluded)
 *  that leave the mover in no shape and touching no seam except where the seam meets the surface (a
 *  face flush against a joined neighbour's is inside their union; the end of the joint, where the
 *  union's surface turns, is outside), preferring those whose straight path crosses no shape the mover
 *  is not already in (so a ball is not pushed through a thin wall into the world outside).
 *  Deterministic; ties go to the lower shape index. */
C2D_API c2d_status c2d_static_set_push_out(const c2d_static_set *set, const c2d_shape *mover, c2d_vec2 *out);

/** Moves the mover by displacement through the set with the responses of options (default slide), as
 *  bump.lua's move: a mover that starts inside is first pushed out. The mover itself is not changed;
 *  result->displacement says where it ends. Up to capacity contacts are written to contacts (which may
 *  be NULL with capacity 0), in the order met; result->count counts them all. */
C2D_API c2d_status c2d_static_set_move(const c2d_static_set *set, const c2d_shape *mover, c2d_vec2 displacement,
                                       const c2d_move_options *options, c2d_move_result *result,
                                       c2d_sweep_contact *contacts, int capacity);

/** Moves the mover through the set as c2d_static_set_move does while it also turns (a spinning crate, a
 *  turning hitbox): over the move (one unit of time) its pivot, a point of its own frame, moves by
 *  motion->velocity and it turns by motion->angular_velocity about it. The turn is swept against every
 *  shape of the set as c2d_sweep_motion sweeps it (the shapes' own motions too), so no corner ever turns
 *  into a wall. It turns until its first contact with a solid shape (touch, slide or bounce; crossed
 *  shapes are reported on the way) and keeps the angle it has then: the rest of the move goes on from
 *  there without turning, the pivot's velocity meeting that contact with its response, as a move goes on
 *  after a contact. That contact is recorded once, at the time the turn stopped (with the normal and
 *  point of the turning sweep, unless the motion goes on into it, when the record is the move's own). A
 *  mover that starts inside is pushed out first, then turns; one that stays inside does not turn.
 *  result->displacement is how far the mover's position (its reference point) moved, *turned (may be
 *  NULL) the angle it turned: accept the move with c2d_shape_set_transform(mover, position +
 *  displacement, angle + *turned). A mover that a turning shape carries (see c2d_static_set_set_motion)
 *  turns with it, and *turned counts that too; a plain move keeps the mover's angle, so a shape riding a
 *  turning platform there leans into it. Without turning (angular_velocity 0) it is
 *  c2d_static_set_move of motion->velocity, bit for bit, but for such a ride. Errors as
 *  c2d_static_set_move's and c2d_sweep_motion's; nothing is written on an error. */
C2D_API c2d_status c2d_static_set_move_turning(const c2d_static_set *set, const c2d_shape *mover,
                                               const c2d_motion *motion, const c2d_move_options *options,
                                               c2d_move_result *result, double *turned,
                                               c2d_sweep_contact *contacts, int capacity);

/** A moving ball for c2d_static_set_step_ball. */
typedef struct c2d_ball {
    c2d_vec2 position; /**< centre */
    c2d_vec2 velocity; /**< per unit of time */
    double radius;     /**< > 0 */
} c2d_ball;

/** Moves the ball through the set for dt >= 0 units of time with as many contacts as happen (default
 *  response: bounce; face hits reflect about the face normal, corner hits about the line from the
 *  corner to the centre at contact). With restitution 1 and no friction the speed is kept to 1e-9
 *  relative (a ball jammed between two facing surfaces it touches at once keeps only the motion along
 *  them). A ball that starts inside is pushed out first (as by c2d_static_set_push_out), then goes on.
 *  Updates ball->position and ball->velocity. result may be NULL; contacts as for
 *  c2d_static_set_move, with t the fraction of dt. */
C2D_API c2d_status c2d_static_set_step_ball(const c2d_static_set *set, c2d_ball *ball, double dt,
                                            const c2d_move_options *options, c2d_move_result *result,
                                            c2d_sweep_contact *contacts, int capacity);

/** @} */

/* ---- swept collision and responses: END ---- */

/* ---- world and broadphase: BEGIN (world section) ---- */

/** @defgroup world Worlds: many shapes, a broadphase, queries and pairs
 *  A world holds entries: a shape, a user value and filter bits. Its broadphase is a dynamic AABB tree
 *  of fattened boxes, so shapes that move a little do not touch the tree, and every query costs about
 *  log(n) plus the number of shapes near the answer.
 *
 *  Ownership: the world does NOT own the shapes. It keeps the pointer and reads the shape during
 *  c2d_world_update and during queries, so a shape must be removed from every world before it is
 *  destroyed (destroying a shape that is still in a world, then querying, is undefined behaviour).
 *  The same shape may be added twice; it is then two entries.
 *
 *  Moving a shape: move it with the shape calls, then call c2d_world_update on its entry. Until then
 *  the world answers from the shape's box as of the last add or update (the exact narrow-phase tests
 *  read the shape as it is now).
 *
 *  Ids: c2d_world_add returns an id, never 0, unique among the world's live entries. An id stays
 *  valid until its entry is removed; afterwards every call given it returns C2D_ERR_RANGE (an id is
 *  reused only after about a million adds and removes of the same slot). Ids of live entries compare
 *  in the order the entries' slots were assigned, and are below 2^53, so they are exact as Lua numbers.
 *
 *  Order: every list a world returns is in a documented order that depends only on the entries (their
 *  geometry, user values and ids), never on the tree's shape or on memory addresses. Entries are
 *  ordered by user value and then by id: give distinct user values (an index into your own array) and
 *  the order is also independent of the order in which the entries were added.
 *
 *  Filters: each entry has category and mask bits (default: category 1, every mask bit set). Two
 *  entries can pair only if (a.category & b.mask) != 0 and (b.category & a.mask) != 0; a query with a
 *  filter sees an entry only under the same rule. Callbacks run after the bits test, so they are
 *  called rarely.
 *
 *  Motion: an entry may be given a velocity and an angular velocity (c2d_world_set_motion), which
 *  world moves and ball steps sweep against the mover. Queries, ray casts and pairs are
 *  instantaneous: they see every shape where it stands now and ignore its motion.
 *
 *  Callbacks: queries run user callbacks only after the tree walk is done. A callback may add,
 *  remove or update entries of the same world (an entry removed by a callback is not reported or passed
 *  to a later callback); it must not destroy the world. Concurrency: a world may be queried from
 *  several threads at once as long as nothing changes it meanwhile and callbacks do not change it.
 *  @{ */

/** An opaque world handle, created by c2d_world_new and freed by c2d_world_destroy. */
typedef struct c2d_world c2d_world;

/** Identifies an entry in a world. 0 is never an id. */
typedef uint64_t c2d_world_id;

/** Every filter bit set: the default mask. */
#define C2D_WORLD_ALL_BITS 0xFFFFFFFFu

/** An entry found by a query. */
typedef struct c2d_world_hit {
    c2d_world_id id;  /**< the entry */
    uintptr_t user;      /**< its user value (as given to c2d_world_add) */
} c2d_world_hit;

/** An entry hit by a ray. */
typedef struct c2d_world_ray_hit {
    c2d_world_id id;  /**< the entry */
    uintptr_t user;      /**< its user value */
    c2d_ray_hit ray;  /**< where and how the ray meets the entry's shape (ray.hit is 1) */
} c2d_world_ray_hit;

/** Two overlapping entries: a comes first in the world's order (user value, then id). */
typedef struct c2d_world_pair {
    c2d_world_id a;   /**< the first entry */
    c2d_world_id b;   /**< the second entry */
    uintptr_t user_a;    /**< a's user value */
    uintptr_t user_b;    /**< b's user value */
} c2d_world_pair;

/** Decides whether a query sees one entry: return nonzero to accept it. */
typedef int (*c2d_world_accept_fn)(void *ctx, c2d_world_id id, uintptr_t user);

/** Decides whether two entries (a before b in the world's order) may pair: nonzero accepts. */
typedef int (*c2d_world_pair_fn)(void *ctx, c2d_world_id a, uintptr_t user_a, c2d_world_id b, uintptr_t user_b);

/** Which entries a query sees. A NULL filter sees every entry, whatever its bits. */
typedef struct c2d_world_filter {
    unsigned int category;      /**< the query's own category, tested against each entry's mask */
    unsigned int mask;          /**< tested against each entry's category */
    c2d_world_accept_fn accept; /**< optional: called for entries that pass the bits; NULL accepts all */
    void *ctx;                  /**< passed to accept */
} c2d_world_filter;

/** A new, empty world in *out. */
C2D_API c2d_status c2d_world_new(c2d_world **out);

/** Frees a world (not its shapes). NULL is ignored. The handle and its ids must not be used afterwards. */
C2D_API void c2d_world_destroy(c2d_world *world);

/** How much the broadphase fattens each entry's box: by absolute + relative * (the larger side of the
 *  shape's tight box) on every side. A shape that stays inside its fattened box costs no tree work on
 *  c2d_world_update; bigger margins mean fewer tree updates but more candidate pairs. Defaults: 0 and
 *  0.1 (a tenth of the shape's size, so it suits metres and pixels alike). Both must be finite, >= 0
 *  and at most C2D_MAX_COORDINATE (else C2D_ERR_NOT_FINITE or C2D_ERR_RANGE). Applies to boxes
 *  computed from now on. */
C2D_API c2d_status c2d_world_set_margin(c2d_world *world, double absolute, double relative);

/** Adds a shape with a user value; *out_id receives the new entry's id. The shape must stay alive
 *  until it is removed (see Ownership above). */
C2D_API c2d_status c2d_world_add(c2d_world *world, c2d_shape *shape, uintptr_t user, c2d_world_id *out_id);

/** Removes an entry. The shape itself is left alone. C2D_ERR_RANGE for an id that is not in the world. */
C2D_API c2d_status c2d_world_remove(c2d_world *world, c2d_world_id id);

/** Tells the world that an entry's shape has moved, turned or been replaced by set_* calls. Cheap when
 *  the shape is still inside its fattened box; otherwise the entry is re-placed in the tree, its box
 *  stretched ahead in the direction the shape moved so that steady motion re-places it rarely. */
C2D_API c2d_status c2d_world_update(c2d_world *world, c2d_world_id id);

/** Number of entries in *out. */
C2D_API c2d_status c2d_world_count(const c2d_world *world, int *out);

/** An entry's shape and user value. Either out pointer may be NULL, not both. C2D_ERR_RANGE for an id
 *  that is not in the world: this is the cheap way to ask whether an id is still valid. */
C2D_API c2d_status c2d_world_get(const c2d_world *world, c2d_world_id id, c2d_shape **out_shape, uintptr_t *out_user);

/** Replaces an entry's user value (this changes its place in the world's order). */
C2D_API c2d_status c2d_world_set_user(c2d_world *world, c2d_world_id id, uintptr_t user);

/** Sets an entry's category and mask bits (see Filters above). */
C2D_API c2d_status c2d_world_set_bits(c2d_world *world, c2d_world_id id, unsigned int category, unsigned int mask);

/** An entry's category and mask bits. Either out pointer may be NULL, not both. */
C2D_API c2d_status c2d_world_get_bits(const c2d_world *world, c2d_world_id id, unsigned int *out_category,
                                      unsigned int *out_mask);

/** Makes an entry one-way for c2d_world_move and c2d_world_step_ball (and their _records forms), as
 *  c2d_static_set_set_one_way does for a static set's shape: it blocks a mover only from the side
 *  direction points to, and is passed through from elsewhere. Zero (the default) blocks from every
 *  side. Queries, pairs and ray casts are not affected. */
C2D_API c2d_status c2d_world_set_one_way(c2d_world *world, c2d_world_id id, c2d_vec2 direction);

/** An entry's one-way direction as a unit vector, or zero. */
C2D_API c2d_status c2d_world_get_one_way(const c2d_world *world, c2d_world_id id, c2d_vec2 *out);

/** Gives an entry a rigid motion for c2d_world_move and c2d_world_step_ball (and their _records and
 *  _report forms), as c2d_static_set_set_motion does for a static set's shape: its velocity and an
 *  angular velocity about its pivot, a point of the shape in its own frame (see c2d_motion; it stays
 *  with the shape when the shape is re-placed). During every later world move (one unit of time) and
 *  ball step (dt) the entry moves and turns from where its shape stands, swept against the mover as
 *  the static set sweeps its members, so a fast flipper or paddle never passes through a ball; a mover
 *  it meets responds to the velocity of its surface at the contact point (v + w x r), and one it
 *  pushes along is carried. The entries a call considers include those whose motion brings them into
 *  the mover's path during the call (a turning entry anywhere within its reach of its pivot, a moving
 *  one along velocity times the call's time), even a ball standing still. The calls do not move the
 *  entry: re-place its shape after the step and call c2d_world_update, as for any entry. Queries, ray
 *  casts and pairs are instantaneous and not affected: they see every shape where it stands. NULL or a
 *  zeroed motion stands still (the default). C2D_ERR_NOT_FINITE or C2D_ERR_RANGE (changing nothing)
 *  for a motion's number beyond C2D_MAX_COORDINATE, or a pivot that stands beyond it; a move or step
 *  answers C2D_ERR_RANGE when an entry it considers has since been re-placed so that its pivot stands
 *  beyond it. */
C2D_API c2d_status c2d_world_set_motion(c2d_world *world, c2d_world_id id, const c2d_motion *motion);

/** An entry's motion (all zero unless set). */
C2D_API c2d_status c2d_world_get_motion(const c2d_world *world, c2d_world_id id, c2d_motion *out);

/** Gives the world a level: a static set whose shapes its motions meet beside its entries. Every world
 *  move, turning move, ball step (and their _records, _report and _timed forms), c2d_world_cast and
 *  c2d_world_push_out then meets the level's enabled shapes as c2d_static_set_move meets them (their
 *  seams, one-way directions, velocities and motions, users' values) together with the entries, in
 *  one motion: a bullet bounces off the walls of the level and crosses or stops at the enemies of the
 *  world in one call, its contacts in the order met. Where no entry is within reach the motion runs
 *  through the level itself, exactly as the set's own call; near entries the level's shapes within
 *  reach join them in one set, with the level's seam tolerance and marked neighbours (seams between
 *  entries, and between an entry and a level shape, are found automatically, as in a world). The
 *  entries' responses come from respond (or options->response); the level's shapes take
 *  options->response (or the call's default), or options->responses, which with a level holds one
 *  response per shape of the level (C2D_RESPONSE_NONE ignores it); the filter applies to the entries
 *  only. Contacts with a level shape carry id 0, contact.index its index in the level and user its
 *  value there. Queries, ray casts and pairs ask the entries only: ask the level with its own calls.
 *  The world does not own the set and does not copy it: keep it alive and unchanged while a call
 *  runs, and give the world NULL (no level, the default) before destroying it. */
C2D_API c2d_status c2d_world_set_level(c2d_world *world, const c2d_static_set *level);

/** The world's level (NULL when none). */
C2D_API c2d_status c2d_world_get_level(const c2d_world *world, const c2d_static_set **out);

/** Gives an entry a velocity for c2d_world_move and c2d_world_step_ball, as c2d_static_set_set_velocity
 *  does for a static set's shape: c2d_world_set_motion of that velocity with the entry's angular
 *  velocity and pivot kept (a turning entry keeps turning). Errors as c2d_world_set_motion's; an error
 *  changes nothing. */
C2D_API c2d_status c2d_world_set_velocity(c2d_world *world, c2d_world_id id, c2d_vec2 velocity);

/** An entry's velocity (zero unless set): the velocity of c2d_world_get_motion. */
C2D_API c2d_status c2d_world_get_velocity(const c2d_world *world, c2d_world_id id, c2d_vec2 *out);

/** Enables (nonzero) or disables (0) an entry, as c2d_static_set_set_enabled does a static set's shape:
 *  a disabled entry stays in the world (its id, shape, user value, bits, one-way direction and motion
 *  are kept, and c2d_world_update still tracks it) but is ignored by every query, ray cast, pair and
 *  move or ball step until it is enabled again. Entries are enabled when added. */
C2D_API c2d_status c2d_world_set_enabled(c2d_world *world, c2d_world_id id, int enabled);

/** *out = 1 if the entry is enabled (the default), else 0. */
C2D_API c2d_status c2d_world_get_enabled(const c2d_world *world, c2d_world_id id, int *out);

/** The pair filter used by c2d_world_pairs after the bits test; NULL (the default) accepts every pair. */
C2D_API c2d_status c2d_world_set_pair_filter(c2d_world *world, c2d_world_pair_fn fn, void *ctx);

/** Rebuilds the broadphase tree from scratch for the entries as they are now. Worth calling once after
 *  adding many shapes that will not move (a level's tiles, say): queries get faster. Entries and ids
 *  are unchanged. */
C2D_API c2d_status c2d_world_optimize(c2d_world *world);

/* Every query below lists the entries it finds, ordered by user value and then id, as every list is
 * (see Lists at the top): on C2D_ERR_CAPACITY, call again with a larger array. A query whose filter
 * changes the world may find a different count the second time; the Lua module and other callers
 * that must not ask a callback twice pass an array as large as the world's count (a query reports
 * only entries there were when it began). */

/** Entries whose shapes overlap or touch the axis-aligned box (exact, not just their bounding boxes).
 *  The box needs min <= max on both axes (else C2D_ERR_RANGE); a zero-size box is allowed. */
C2D_API c2d_status c2d_world_query_aabb(const c2d_world *world, c2d_aabb box, const c2d_world_filter *filter,
                                        c2d_world_hit *out, int capacity, int *count);

/** Entries whose shapes contain the point p (on the boundary counts; see c2d_contains_point). */
C2D_API c2d_status c2d_world_query_point(const c2d_world *world, c2d_vec2 p, const c2d_world_filter *filter,
                                         c2d_world_hit *out, int capacity, int *count);

/** Entries whose shapes overlap or touch `shape` (c2d_overlap). The shape need not be in the world; if
 *  it is, its own entries are reported too (pass a filter to skip them). */
C2D_API c2d_status c2d_world_query_shape(const c2d_world *world, const c2d_shape *shape,
                                         const c2d_world_filter *filter, c2d_world_hit *out, int capacity,
                                         int *count);

/** The first entry hit by the ray origin + t * direction, 0 <= t <= max_t (same arguments as
 *  c2d_raycast; a segment query from a to b is direction = b - a, max_t = 1). On a hit out->ray.hit is 1;
 *  with no hit *out is all zero. Of entries hit at the same t, the first in the world's order wins. */
C2D_API c2d_status c2d_world_raycast(const c2d_world *world, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                                     const c2d_world_filter *filter, c2d_world_ray_hit *out);

/** Every entry hit by the ray, in order of t, ties in the world's order (count and capacity as for the
 *  queries above). */
C2D_API c2d_status c2d_world_raycast_all(const c2d_world *world, c2d_vec2 origin, c2d_vec2 direction,
                                         double max_t, const c2d_world_filter *filter, c2d_world_ray_hit *out,
                                         int capacity, int *count);

/** Every pair of entries whose shapes overlap or touch, each pair once, that passes the bits test and
 *  the pair filter. Pairs are ordered by their first entry, then their second, in the world's order.
 *  When contacts is not NULL, contacts[i] receives c2d_collide(a's shape, b's shape) for out[i] (normal
 *  from a to b). Count and capacity as for the queries above (contacts, if given, must hold capacity
 *  entries too). The world keeps the candidate pairs between calls and only revisits entries whose
 *  fattened boxes changed, which is why this call takes a non-const world: unlike the queries, it
 *  must not run at the same time as any other call on the same world. */
C2D_API c2d_status c2d_world_pairs(c2d_world *world, c2d_world_pair *out, c2d_contact *contacts, int capacity,
                                   int *count);

/** Decides how a world move or ball step responds to one entry: return C2D_RESPONSE_NONE to ignore it,
 *  or TOUCH, SLIDE, BOUNCE or CROSS. */
typedef c2d_response (*c2d_world_response_fn)(void *ctx, c2d_world_id id, uintptr_t user);

/** One contact of a world move or ball step: the entry met, and the contact as for a static set
 *  (contact.index is the entry's rank among the entries the move considered; use id and user). */
typedef struct c2d_world_contact {
    c2d_world_id id;           /**< the entry met */
    uintptr_t user;            /**< its user value */
    c2d_sweep_contact contact; /**< when, where, normal and response */
} c2d_world_contact;

/** Moves the mover by displacement through the world's entries, as c2d_static_set_move does through a
 *  static set (default response slide; seams between touching entries are found automatically, so a
 *  box sliding over a floor of tiles never snags). The entries considered are those within reach of
 *  the motion that pass the filter (NULL: all) and whose response is not NONE; respond (NULL: use
 *  options->response for all) picks each entry's response; the filter's accept and respond are called
 *  at most once per entry in one call. A mover that starts inside is pushed out first, and the entries
 *  near where that takes it are considered too. Entries whose shape is the mover itself are
 *  skipped, so a shape in the world can be moved through its own world. The mover and the world are
 *  not changed: result->displacement says where the mover ends. Contacts in the order met, up to
 *  capacity; result->count counts them all. options->responses must be NULL (C2D_ERR_RANGE), unless the
 *  world has a level (c2d_world_set_level): then it holds the responses of the level's shapes. */
C2D_API c2d_status c2d_world_move(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                                  const c2d_world_filter *filter, c2d_world_response_fn respond, void *respond_ctx,
                                  const c2d_move_options *options, c2d_move_result *result,
                                  c2d_world_contact *contacts, int capacity);

/** c2d_world_move of a mover that also turns, as c2d_static_set_move_turning moves one through a static
 *  set: its pivot (a point of its own frame) moves by motion->velocity and it turns by
 *  motion->angular_velocity about it, swept against the entries (and their own motions), until its
 *  first contact with a solid entry; then it goes on without turning. *turned (may be NULL) is the angle
 *  it turned. With angular_velocity 0 it is c2d_world_move of motion->velocity, but for a ride on a
 *  turning entry, which turns it along. */
C2D_API c2d_status c2d_world_move_turning(const c2d_world *world, const c2d_shape *mover, const c2d_motion *motion,
                                          const c2d_world_filter *filter, c2d_world_response_fn respond,
                                          void *respond_ctx, const c2d_move_options *options,
                                          c2d_move_result *result, double *turned, c2d_world_contact *contacts,
                                          int capacity);

/** Moves a ball through the world's entries (and level, c2d_world_set_level) for dt, as
 *  c2d_static_set_step_ball does through a static set (default response bounce), with the entries
 *  chosen as for c2d_world_move. Updates the ball. */
C2D_API c2d_status c2d_world_step_ball(const c2d_world *world, c2d_ball *ball, double dt,
                                       const c2d_world_filter *filter, c2d_world_response_fn respond,
                                       void *respond_ctx, const c2d_move_options *options,
                                       c2d_move_result *result, c2d_world_contact *contacts, int capacity);

/** @} */

/** @defgroup records Contact records: every contact, with where the mover was
 *  The calls below are c2d_static_set_move, c2d_static_set_step_ball, c2d_world_move and
 *  c2d_world_step_ball with fuller contact records: besides the contact itself, where the mover was
 *  at that moment (the ball's centre, the moving shape's position: what a game draws, spawns an
 *  effect at or replays) and how it went on. The contacts are those of the plain calls, in the same
 *  order. result->count counts them all: when it exceeds capacity, the first capacity are written.
 *  The static-set calls may then be run again with room for result->count (they are deterministic and
 *  change nothing but their outputs and, for a ball step, the ball); a world call may not give the
 *  same answer twice, since its callbacks may change the world and would be asked again. The _report
 *  forms at the end of this group never need a second run: they hand every record over at once.
 *  @{ */

/** One contact of a move or ball step. */
typedef struct c2d_contact_record {
    /** As the plain calls report it (for a world, contact.index is the entry's rank in the call). */
    c2d_sweep_contact contact;
    /** The mover's position at the contact: the ball's centre, or the moving shape's position (its
     *  reference point, see the constructors). For a ball, position = contact.point + radius *
     *  contact.normal. */
    c2d_vec2 position;
    /** The mover's velocity (per unit of time; for a move, displacement per whole move) just after
     *  the contact's response. */
    c2d_vec2 velocity;
    /** The entry met, for the world calls; 0 for a static set. */
    c2d_world_id id;
    /** Its user value: the world entry's, or for a static set the shape's (c2d_static_set_set_user; 0
     *  unless given). */
    uintptr_t user;
} c2d_contact_record;

/** c2d_static_set_move, with contact records. */
C2D_API c2d_status c2d_static_set_move_records(const c2d_static_set *set, const c2d_shape *mover,
                                               c2d_vec2 displacement, const c2d_move_options *options,
                                               c2d_move_result *result, c2d_contact_record *records,
                                               int capacity);

/** c2d_static_set_step_ball, with contact records. */
C2D_API c2d_status c2d_static_set_step_ball_records(const c2d_static_set *set, c2d_ball *ball, double dt,
                                                    const c2d_move_options *options, c2d_move_result *result,
                                                    c2d_contact_record *records, int capacity);

/** c2d_world_move, with contact records. */
C2D_API c2d_status c2d_world_move_records(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                                          const c2d_world_filter *filter, c2d_world_response_fn respond,
                                          void *respond_ctx, const c2d_move_options *options,
                                          c2d_move_result *result, c2d_contact_record *records, int capacity);

/** c2d_world_step_ball, with contact records. */
C2D_API c2d_status c2d_world_step_ball_records(const c2d_world *world, c2d_ball *ball, double dt,
                                               const c2d_world_filter *filter, c2d_world_response_fn respond,
                                               void *respond_ctx, const c2d_move_options *options,
                                               c2d_move_result *result, c2d_contact_record *records,
                                               int capacity);

/** Receives every contact record of one move or ball step, in the order met, once the motion is
 *  decided and before the call returns: count is result->count, and the array lives until report
 *  returns. Whatever report returns other than C2D_OK becomes the call's status, and the call then
 *  changes nothing (a ball step leaves the ball where it was, result is not written). */
typedef c2d_status (*c2d_records_fn)(void *ctx, const c2d_contact_record *records, int count);

/** c2d_static_set_move_turning with every contact handed to report as a full record at once, however
 *  many (records' position: where the mover's position was then). */
C2D_API c2d_status c2d_static_set_move_turning_report(const c2d_static_set *set, const c2d_shape *mover,
                                                      const c2d_motion *motion, const c2d_move_options *options,
                                                      c2d_move_result *result, double *turned,
                                                      c2d_records_fn report, void *report_ctx);

/** c2d_world_move_turning with every contact handed to report as a full record at once. */
C2D_API c2d_status c2d_world_move_turning_report(const c2d_world *world, const c2d_shape *mover,
                                                 const c2d_motion *motion, const c2d_world_filter *filter,
                                                 c2d_world_response_fn respond, void *respond_ctx,
                                                 const c2d_move_options *options, c2d_move_result *result,
                                                 double *turned, c2d_records_fn report, void *report_ctx);

/** c2d_static_set_move_records with every record handed to report at once, however many. */
C2D_API c2d_status c2d_static_set_move_report(const c2d_static_set *set, const c2d_shape *mover,
                                              c2d_vec2 displacement, const c2d_move_options *options,
                                              c2d_move_result *result, c2d_records_fn report,
                                              void *report_ctx);

/** c2d_static_set_step_ball_records with every record handed to report at once. */
C2D_API c2d_status c2d_static_set_step_ball_report(const c2d_static_set *set, c2d_ball *ball, double dt,
                                                   const c2d_move_options *options, c2d_move_result *result,
                                                   c2d_records_fn report, void *report_ctx);

/** c2d_world_move_records with every record handed to report at once: the filter's accept and respond
 *  are asked once per entry, as always, and no second run is needed whatever they change. */
C2D_API c2d_status c2d_world_move_report(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                                         const c2d_world_filter *filter, c2d_world_response_fn respond,
                                         void *respond_ctx, const c2d_move_options *options,
                                         c2d_move_result *result, c2d_records_fn report, void *report_ctx);

/** c2d_world_step_ball_records with every record handed to report at once. */
C2D_API c2d_status c2d_world_step_ball_report(const c2d_world *world, c2d_ball *ball, double dt,
                                              const c2d_world_filter *filter, c2d_world_response_fn respond,
                                              void *respond_ctx, const c2d_move_options *options,
                                              c2d_move_result *result, c2d_records_fn report,
                                              void *report_ctx);

/** Options of c2d_static_set_step_balls for the contacts between balls (those with the level take the
 *  c2d_move_options). c2d_balls_options_default() gives the defaults; NULL means them. */
typedef struct c2d_balls_options {
    /** Ball-ball bounce: fraction of the normal approach speed kept, in [0, 1]; default 1 (elastic). */
    double restitution;
    /** >= 0: two balls that meet approaching at this normal speed or slower are a resting contact: they
     *  end at rest against each other (restitution 0), the impulses shared at once among every ball
     *  touching them (a pile), and a ball pushed into the level it touches is held by it. When > 0,
     *  the contacts that close at most this fast within the step (balls as near as that, balls meeting
     *  the level that slowly) are also solved together, exactly, before the step: each such pair of
     *  balls ends the step half a touching tolerance apart, and the level's friction (the move
     *  options', for a bounce response) acts on the balls it holds up as in a bounce, so that a pile
     *  under gravity comes to rest: no ball contacts in its steps, no jitter, no creep. A game with
     *  gravity g sets about 2 g dt. Default 0. */
    double rest_speed;
    /** > 0: the most ball-ball contacts (events) of one step, after which the step is cut short (every
     *  ball stops where it is at that moment, result->truncated is 1); 0: 256 + 16 per ball. */
    int max_events;
} c2d_balls_options;

/** The default ball options: restitution 1, rest_speed 0, max_events 0. */
C2D_API c2d_balls_options c2d_balls_options_default(void);

/** Steps n balls (balls[0 .. n)) through the set and against each other for dt >= 0 units of time:
 *  multi-ball breakout, pinball. Each ball goes through the level as c2d_static_set_step_ball takes it
 *  (options: responses, restitution and friction against the set's shapes; seams, one-way shapes and
 *  moving members as there), and every contact between two balls and between a ball and the level is
 *  met in time order within the step, swept: two balls never pass through each other or overlap
 *  deeper than the touching tolerance, whatever their speeds. Two balls that meet exchange the impulse
 *  of their masses along the line between their centres with ball_options' restitution (no friction
 *  between balls). masses: NULL (all 1) or n masses > 0, as far apart as doubles go (balls more than
 *  2^1000 lighter than the heaviest meet each other as if of one mass); INFINITY makes a fixed ball,
 *  which moves as its velocity and the level take it and which other balls bounce off as off a wall
 *  (two fixed balls pass through each other). A ball that meets no other ball this step ends exactly where
 *  c2d_static_set_step_ball puts it (with a rest speed, unless the level holds it up at rest: see
 *  c2d_balls_options). Balls that start overlapping deeper than touching (placed so, or pushed out of
 *  a solid shape onto each other) are first pushed apart, as one ball is pushed out of the level: by
 *  their inverse masses along the line between their centres (for one centre, along x, the lower index
 *  to the left), to touching, held by the walls the level pushed them from, and out of the level again,
 *  each pair's two records (pushed_out 1) at t 0; their velocities stay. Balls crammed into a pit too
 *  small for them, or that only a push beyond C2D_MAX_COORDINATE would part, may stay overlapping.
 *  Updates every ball's position and velocity.
 *
 *  result (may be NULL): count counts every record (see report), truncated is 1 when a ball's level
 *  path or the step's ball contacts (ball_options->max_events) were cut short; travelled sums the
 *  balls' paths; displacement and velocity are zero (each ball's are in balls).
 *
 *  report (may be NULL) receives every contact record at once, as the _report calls do, ordered by
 *  time: id is 1 + the index of the ball the record is about. A contact with the level has that
 *  shape's index (>= 0) in contact.index and its user value in user. A contact between balls i and j
 *  gives two records, i's then j's (i < j), and contact.index = -1 - the other ball's index (so
 *  negative); contact.normal points from the other ball towards this one, contact.point is this
 *  ball's surface point there, response C2D_RESPONSE_BOUNCE, position and velocity this ball's (after
 *  the impulse). A report that returns other than C2D_OK leaves every ball as it was.
 *
 *  Errors (nothing changed): C2D_ERR_RANGE for n < 0, dt < 0, a mass <= 0 or bad ball_options;
 *  C2D_ERR_NULL for set NULL or balls NULL with n > 0; C2D_ERR_NOT_FINITE, C2D_ERR_RANGE and
 *  C2D_ERR_SIZE for a ball as c2d_static_set_step_ball; C2D_ERR_NOT_FINITE for a NaN mass or option;
 *  C2D_ERR_NO_MEMORY. */
C2D_API c2d_status c2d_static_set_step_balls(const c2d_static_set *set, c2d_ball *balls, const double *masses, int n,
                                             double dt, const c2d_move_options *options,
                                             const c2d_balls_options *ball_options, c2d_move_result *result,
                                             c2d_records_fn report, void *report_ctx);

/** What c2d_world_step_balls hands its records to: every record of the step at once, ordered by time,
 *  and balls[k] the index of the ball records[k] is about (a world record's id names the entry met, so
 *  the ball goes beside it). Both arrays live until the function returns; whatever it returns other
 *  than C2D_OK becomes the call's status, and the call then changes nothing. */
typedef c2d_status (*c2d_balls_records_fn)(void *ctx, const c2d_contact_record *records, const int *balls,
                                           int count);

/** c2d_static_set_step_balls through a world: n balls stepped together for dt through the world's
 *  entries (and its level, c2d_world_set_level) and against each other, with the entries chosen as for
 *  c2d_world_step_ball: those within reach of the balls' motions over dt (entries in motion when their
 *  motion can bring them there) that pass filter (NULL: all) and that respond (NULL: options->response
 *  for all, default bounce) does not answer C2D_RESPONSE_NONE; accept and respond are asked at most once
 *  per entry in one call. They become one static set for the step (seams between touching entries found
 *  automatically, one-way directions and motions as in the world), and where balls thrown by other balls
 *  or by entries in motion go beyond it, it grows and the step runs again (from the balls as given:
 *  nothing is written before the last run). With a level and no entry within reach, the step runs
 *  through the level itself: bit for bit c2d_static_set_step_balls on the level.
 *
 *  The balls are plain c2d_ball values, not entries. A game that also keeps shapes of its balls in the
 *  world (to query them) must leave those out with the filter (category bits, or accept), or each ball
 *  meets its own shape as an obstacle.
 *
 *  masses, ball_options and result as c2d_static_set_step_balls; options as c2d_world_step_ball's
 *  (options->responses only with a level, one per shape of the level). report (may be NULL) receives
 *  every record at once, ordered by time, with the ball each is about in its balls array: an entry met
 *  has its id and user value, and contact.index its rank among the entries the call considered (as
 *  c2d_world_step_ball_records); a shape of the level has id 0, contact.index its index in the level and
 *  user its value there; another ball has id 0, user 0 and contact.index = -1 - that ball's index (a
 *  contact between balls i < j gives i's record then j's, as c2d_static_set_step_balls does).
 *
 *  Errors (nothing changed, and no callback asked): C2D_ERR_RANGE for n < 0; C2D_ERR_NULL for world NULL
 *  or balls NULL with n > 0; then those of c2d_static_set_step_balls for the balls, masses, dt and
 *  options, and C2D_ERR_RANGE for options->responses without a level. C2D_ERR_RANGE when respond answers
 *  a value that is not a c2d_response, C2D_ERR_NO_MEMORY, or what report returns: the balls are then
 *  unchanged. */
C2D_API c2d_status c2d_world_step_balls(const c2d_world *world, c2d_ball *balls, const double *masses, int n,
                                        double dt, const c2d_world_filter *filter, c2d_world_response_fn respond,
                                        void *respond_ctx, const c2d_move_options *options,
                                        const c2d_balls_options *ball_options, c2d_move_result *result,
                                        c2d_balls_records_fn report, void *report_ctx);

/** @} */

/** @defgroup casts Casts: the first contact of a moving shape, in the containers' convention
 *  A cast asks where a shape moving by a displacement first meets a static set, or a world's entries
 *  and level, without moving anything and without responses: the ground below a character, the wall a
 *  dash would stop at. It answers as a contact record does: the normal points from the shape met
 *  towards the mover, and the answer names where the mover stands at the contact and what it met.
 *  @{ */

/** What a cast found. */
typedef enum c2d_cast_state {
    C2D_CAST_NONE = 0,  /**< nothing met: t is 1 and position where the displacement ends */
    C2D_CAST_HIT = 1,   /**< met at t */
    C2D_CAST_INSIDE = 2 /**< the mover starts overlapping a shape deeper than touching: t is 0 */
} c2d_cast_state;

/** The answer of a cast. */
typedef struct c2d_cast {
    c2d_cast_state state;
    /** Fraction of the displacement at first contact, in [0, 1]; 1 when nothing is met. */
    double t;
    /** Where the mover's position is at t: its start plus t times the displacement. */
    c2d_vec2 position;
    /** The contact point, on both surfaces (for INSIDE: midway between the deepest points). */
    c2d_vec2 point;
    /** Unit normal of the surface met, pointing towards the mover. For INSIDE, moving the mover by
     *  depth * normal takes it out of that shape. Zero when nothing is met. */
    c2d_vec2 normal;
    /** For INSIDE, how deep the mover starts in; else 0. */
    double depth;
    /** The shape's index in the static set (for a world, in its level); -1 for a world entry or none. */
    int index;
    /** The world entry met; 0 for a shape of a set or level, or none. */
    c2d_world_id id;
    /** The user value of the shape or entry met (0 for none). */
    uintptr_t user;
} c2d_cast;

/** The first contact of the mover (a convex shape, not part of the set) moving by displacement with
 *  the enabled shapes of the set, seams excluded; one-way shapes block only from their side, and
 *  shapes with a velocity or motion move over one unit of time, as in a move. */
C2D_API c2d_status c2d_static_set_cast(const c2d_static_set *set, const c2d_shape *mover, c2d_vec2 displacement,
                                       c2d_cast *out);

/** c2d_static_set_cast through a world: its entries that pass the filter (NULL: all) and its level.
 *  The mover's own entry, if it is in the world, is skipped. Of shapes met at the same t, the level's
 *  come first, then the entries in the world's order. For a mover that starts inside, the way out
 *  (normal, depth, what it names) is looked for as c2d_world_push_out looks for it. */
C2D_API c2d_status c2d_world_cast(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                                  const c2d_world_filter *filter, c2d_cast *out);

/** c2d_static_set_push_out through a world: the displacement that takes the mover out of the union of
 *  the entries that pass the filter (NULL: all) and the level's shapes, to touching; zero when it is
 *  not inside. Seams between touching entries are found as in a move; the mover's own entry is
 *  skipped. The way out is looked for among the shapes near the mover, and further while the way found
 *  ends beyond them, so it leaves the mover in no shape of the world or level deeper than touching; in a
 *  crowd whose every short way out crosses another shape, c2d_static_set_push_out over all of them may
 *  prefer a longer way that this call does not look as far for. */
C2D_API c2d_status c2d_world_push_out(const c2d_world *world, const c2d_shape *mover,
                                      const c2d_world_filter *filter, c2d_vec2 *out);

/** @} */

/** @defgroup timed Timed moves: one unit of velocity for every call
 *  The moves above last one unit of time, so a moving member's velocity means "per move" there and
 *  "per unit of dt" in a ball step. The timed moves last dt: the mover moves by displacement (or, turning,
 *  by its motion's velocity and angular velocity per unit of time) over dt > 0 units of time, while the
 *  members and entries in motion move by their velocity times dt, as in a ball step of the same dt and
 *  as c2d_static_set_advance(set, dt) places them after the frame. One velocity per moving platform,
 *  per second if dt is in seconds. The result's velocity and the records' velocities are per unit of
 *  time; contact.t is a fraction of dt. With dt 1 each is its untimed call, bit for bit; otherwise the
 *  mover ends where its displacement takes it to rounding (it moves at displacement / dt for dt).
 *  C2D_ERR_RANGE for dt <= 0 (or a displacement / dt beyond C2D_MAX_COORDINATE).
 *  @{ */

/** c2d_static_set_move_report lasting dt. */
C2D_API c2d_status c2d_static_set_move_timed_report(const c2d_static_set *set, const c2d_shape *mover,
                                                    c2d_vec2 displacement, double dt,
                                                    const c2d_move_options *options, c2d_move_result *result,
                                                    c2d_records_fn report, void *report_ctx);

/** c2d_static_set_move_turning_report lasting dt: the pivot moves by motion->velocity * dt and the
 *  mover turns by motion->angular_velocity * dt (*turned). */
C2D_API c2d_status c2d_static_set_move_turning_timed_report(const c2d_static_set *set, const c2d_shape *mover,
                                                            const c2d_motion *motion, double dt,
                                                            const c2d_move_options *options,
                                                            c2d_move_result *result, double *turned,
                                                            c2d_records_fn report, void *report_ctx);

/** c2d_world_move_report lasting dt. */
C2D_API c2d_status c2d_world_move_timed_report(const c2d_world *world, const c2d_shape *mover,
                                               c2d_vec2 displacement, double dt, const c2d_world_filter *filter,
                                               c2d_world_response_fn respond, void *respond_ctx,
                                               const c2d_move_options *options, c2d_move_result *result,
                                               c2d_records_fn report, void *report_ctx);

/** c2d_world_move_turning_report lasting dt. */
C2D_API c2d_status c2d_world_move_turning_timed_report(const c2d_world *world, const c2d_shape *mover,
                                                       const c2d_motion *motion, double dt,
                                                       const c2d_world_filter *filter,
                                                       c2d_world_response_fn respond, void *respond_ctx,
                                                       const c2d_move_options *options, c2d_move_result *result,
                                                       double *turned, c2d_records_fn report, void *report_ctx);

/** @defgroup character A character mover: walking, standing, stepping and riding in a static set
 *  c2d_static_set_move_character moves a platformer's box or capsule through a static set as a game's
 *  hand-written controller does: it walks along walkable ground (never leaving it walking down a slope,
 *  never creeping down one standing still), slides down steeper ground, climbs steps up to a height,
 *  lands on one-way members (and drops through them when asked), rides moving and turning members, and
 *  says what the character stands on. It is made of the set's own sweeps and slide moves, so it never ends
 *  inside a solid member and never tunnels.
 *
 *  The library has no up: the options say which way it is, (0, 1) in a y-up frame (the default),
 *  (0, -1) on a y-down screen. Ground is walkable when its normal is within max_slope of up.
 *
 *  "Speed follows the input" means speed along the ground: on walkable ground a call given a
 *  displacement whose part across up (the horizontal part, for up (0, 1)) has length L moves the
 *  character L along the ground, uphill or down, in that part's direction, and drops the part along up
 *  (gravity, on walkable ground, moves nothing). On a slope of angle a the character so moves L cos(a)
 *  across and L sin(a) along up. A part along up that points away from the ground (a jump) leaves it:
 *  the displacement is then moved as it is, as c2d_static_set_move moves it (slide).
 *  @{ */

/** Options of c2d_static_set_move_character. c2d_character_options_default() gives the defaults; NULL
 *  means them. */
typedef struct c2d_character_options {
    /** The direction away from the ground, any length but zero: (0, 1) in a y-up frame (the
     *  default), (0, -1) on a y-down screen. */
    c2d_vec2 up;
    /** The steepest walkable ground, as the angle in radians between its normal and up, in [0, pi/2)
     *  (default 50 degrees, 0.8726646259971648). Steeper ground is slid down; ground whose normal is
     *  within max_slope of down is a ceiling. */
    double max_slope;
    /** How far, at most, a character that walked on the ground looks down for it after the move and
     *  steps down onto it (>= 0; default 0: only touching ground counts). Give it at least the run per
     *  call times the tangent of max_slope, so that walking down a slope never leaves the ground. */
    double snap_distance;
    /** The highest step a walking character climbs (>= 0; default 0: none). Blocked by something it
     *  cannot walk up, it tries the walk again lifted by step_height and set down on top: taken when
     *  it lands on walkable ground further along the walk. */
    double step_height;
    /** Nonzero: one-way members are passed through for this call, and a character standing on one
     *  falls (the part of the displacement along up moves it, as in the air). One call is enough: a
     *  character overlapping a one-way member passes it in later calls (see
     *  c2d_static_set_set_one_way). */
    int drop_through;
} c2d_character_options;

/** The default character options: up (0, 1), max_slope 50 degrees, no snap, no step, no drop. */
C2D_API c2d_character_options c2d_character_options_default(void);

/** What a character stands on, read and written by c2d_static_set_move_character: keep one per
 *  character between calls. A zeroed struct (ground_index 0 is a shape, so set it to -1) or one a
 *  call wrote is valid. */
typedef struct c2d_character_state {
    /** 1 when the character stands on walkable ground, else 0; 1 too (with C2D_CHARACTER_STEEP in
     *  the call's flags) when it is wedged between surfaces too steep to stand on that hold it up, a
     *  V it cannot slide out of: ground_normal is then the steep normal it touches. */
    int grounded;
    /** The ground's shape index in the set, -1 when not grounded. */
    int ground_index;
    /** The ground's unit surface normal (pointing to the character), zero when not grounded. */
    c2d_vec2 ground_normal;
    /** Where the character touches the ground, on the ground's surface (the middle of where they touch
     *  when a face rests on a face), zero when not grounded. Written for the game (dust, a footstep
     *  sound's place); the next call does not read it: it finds where the character stands on ground
     *  that turns from the two shapes as they stand then. */
    c2d_vec2 ground_point;
    /** The velocity of the ground's surface at ground_point (zero for still ground): the ground's
     *  velocity (c2d_static_set_set_velocity), and for ground that turns (c2d_static_set_set_motion)
     *  its turn's part there too, v + w x r, r from the ground's pivot (where the call leaves it, moved
     *  by v) to ground_point: the velocity the ground's point under the character has as the next
     *  call starts. The character
     *  rides the ground in the next call. Add it to a jump's velocity to jump off a moving or spinning
     *  platform with its speed. */
    c2d_vec2 ground_velocity;
    /** The ground's user value (c2d_static_set_set_user), 0 when not grounded. */
    uintptr_t ground_user;
} c2d_character_state;

/** Flags of c2d_character_result.flags: what happened during one call. */
enum {
    C2D_CHARACTER_CEILING = 1,  /**< hit a ceiling (a surface whose normal is within max_slope of down): stop rising */
    C2D_CHARACTER_WALL = 2,     /**< met a wall or a step too high, or ground too steep to walk */
    C2D_CHARACTER_STEEP = 4,    /**< ends touching ground too steep to walk: sliding down it (or wedged, see grounded) */
    C2D_CHARACTER_STEPPED = 8,  /**< climbed a step */
    C2D_CHARACTER_SNAPPED = 16, /**< stepped down onto the ground (snap_distance), or settled onto turning ground */
    C2D_CHARACTER_LANDED = 32   /**< grounded now, not before the call */
};

/** The outcome of c2d_static_set_move_character. */
typedef struct c2d_character_result {
    /** How far the character's position moved in all (push-out, ride, walk, step and snap). */
    c2d_vec2 displacement;
    /** C2D_CHARACTER_* flags. */
    int flags;
    /** Number of contact records handed to report. */
    int count;
    /** The step down onto the ground at the end (C2D_CHARACTER_SNAPPED), zero otherwise: the walk
     *  itself ended at displacement - snap, and went straight down from there (what a game that
     *  checks or draws the path needs besides the records' positions). */
    c2d_vec2 snap;
} c2d_character_result;

/** Moves a character (a convex mover: a box or a capsule, usually) through the set by displacement,
 *  the motion it asks for in one call (the walk plus gravity, say, per frame), with the rules of the
 *  group above, and updates *state (what it stands on) for the next call. The mover is not changed:
 *  result->displacement says where it ends. In order:
 *   - on ground that moves (state->grounded, and the ground shape has a velocity or a motion), the
 *     character rides it: the point by which it stands on the ground (the point of its own core
 *     there: a capsule's bottom centre, a box's corner; where a face rests on a face, the end of it
 *     the ground's turn lifts) goes where the ground's motion over the call takes that point of the
 *     ground, with the very sums of c2d_static_set_advance(set, 1). So it keeps its offset to a
 *     platform that only moves, and stands on the same point of one that turns, call after call (to
 *     rounding: 1e-14 over 300 calls in the tests), while it stays upright (it does not turn
 *     itself: a box on a tilting platform rests on a corner). Found from the two shapes at the
 *     call's start, that point is not read from the state. On a turning platform the walk goes along
 *     its surface as it stands at the start of the call, or at the end where the turn lifts the
 *     ground ahead, so that the walk never cuts into it. A platform that tilts past max_slope is slid
 *     down as any steep ground; in a set where something turns, a character that met anything is
 *     pushed out of the shapes where the call leaves them, so a turning member never leaves it
 *     inside, and one that lands on a turning member settles onto it (the look down goes as far as
 *     the turn can have opened a gap under it);
 *   - grounded on walkable ground, the displacement's part along up is dropped unless it points away
 *     (a jump, which leaves the ground), and its part across up, of length L, becomes a walk of L
 *     along the ground, uphill or down, and on still ground L along it however it bends: where the
 *     character's position stands touching the ground (lines, and around the ground's vertices
 *     arcs for a round mover), it moves L along that path. The walk is moved with the slide
 *     response; a bend up (the slide onto ground still walkable shortened it) is walked on along the
 *     new ground, and a bend down (walkable ground of another slope found within snap_distance below
 *     the walk's end) is walked again around the bend, at its corner or, for a round mover, around
 *     the arc it rolls over the ground's vertex (five bends at most; on moving ground the walk is one
 *     slide);
 *   - a walk blocked by a wall is tried again over a step up to step_height high (see its option);
 *   - after a walk the character looks down snap_distance and steps down onto walkable ground (a
 *     ledge's drop; a bend down was walked around);
 *   - off the ground the displacement is moved as c2d_static_set_move moves it (slide); it lands on
 *     walkable ground it meets. Not rising, it never climbs ground too steep to stand on by pushing
 *     sideways into it (the move is made again without the sideways part), and wedged in a V of such
 *     ground it counts as grounded (see c2d_character_state.grounded).
 *  A character that starts inside the set's solid members is pushed out first. Every contact of the
 *  moves (not those of the looks down and up) is handed to report (may be NULL) as full records (see
 *  c2d_records_fn; t is the fraction of the move, or of the walk, that met it), result->count counts
 *  them. A walk around a bend down adds a record of the ground touched where the bend begins and, for
 *  a round mover, where its arc ends: between two records the path is straight, but for a round mover
 *  between two that touch the same point, around which it rolls (then, result->snap aside, the path
 *  is known: what a game that checks or draws it needs).
 *  C2D_ERR_NULL for a NULL set, mover, state or result; C2D_ERR_NOT_FINITE or C2D_ERR_RANGE for a
 *  displacement or option out of range (up zero: C2D_ERR_DEGENERATE), a state whose numbers are not
 *  finite or whose ground_index is not -1 or a shape of the set; C2D_ERR_NOT_CONVEX for a chain or
 *  concave mover; on any error (report's too) nothing is written. */
C2D_API c2d_status c2d_static_set_move_character(const c2d_static_set *set, const c2d_shape *mover,
                                                 c2d_vec2 displacement, const c2d_character_options *options,
                                                 c2d_character_state *state, c2d_character_result *result,
                                                 c2d_records_fn report, void *report_ctx);

/** What a character in a world stands on, as c2d_character_state but for the entry's id. */
typedef struct c2d_world_character_state {
    /** As c2d_character_state.grounded. */
    int grounded;
    /** The ground's entry; 0 when not grounded, or when the ground is a shape of the world's level. */
    c2d_world_id ground_id;
    /** When the ground is a shape of the world's level (c2d_world_set_level): its index in the level
     *  (ground_id is then 0); -1 otherwise. */
    int ground_index;
    /** The ground's unit surface normal (pointing to the character), zero when not grounded. */
    c2d_vec2 ground_normal;
    /** As c2d_character_state.ground_point. */
    c2d_vec2 ground_point;
    /** As c2d_character_state.ground_velocity: the velocity of the ground's surface at ground_point, by
     *  the entry's motion (c2d_world_set_motion) or the level shape's, zero for still ground. */
    c2d_vec2 ground_velocity;
    /** The ground's user value (the entry's, or the level shape's), 0 when not grounded. */
    uintptr_t ground_user;
} c2d_world_character_state;

/** c2d_static_set_move_character through a world's entries, as c2d_world_move moves a shape through
 *  them: the entries within reach of the character's motion (its walk, a step up and down, the look
 *  down, the ride) become a temporary static set, the filter and respond pick and answer entries as
 *  for c2d_world_move (C2D_RESPONSE_NONE ignores one; every other answer makes it solid for the
 *  character), and the mover, if it is an entry itself, is left out. It rides an entry in motion
 *  (c2d_world_set_motion: its velocity and its turn, as c2d_static_set_move_character rides a set's
 *  shape) that state->ground_id names. A world with a level (c2d_world_set_level) walks the
 *  character on the level's shapes too, as c2d_world_move does; a ground among them is named by
 *  state->ground_index with ground_id 0, and the character rides its motion. The same moves as
 *  through a static set of the same shapes in the same motions, bit for bit. Records (to report, may
 *  be NULL) carry the entries' ids and user values. A zeroed state is valid (not grounded: ground_id
 *  and ground_index are read only while grounded). Errors as c2d_static_set_move_character's and
 *  c2d_world_move's, with C2D_ERR_RANGE for a ground_id of no live entry, or a ground_index beyond the
 *  level's shapes, while grounded; on any error nothing is written. */
C2D_API c2d_status c2d_world_move_character(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                                            const c2d_world_filter *filter, c2d_world_response_fn respond,
                                            void *respond_ctx, const c2d_character_options *options,
                                            c2d_world_character_state *state, c2d_character_result *result,
                                            c2d_records_fn report, void *report_ctx);

/** @} */

/* ---- world and broadphase: END ---- */

#ifdef __cplusplus
}
#endif

#endif /* COLLIDE2D_H */
