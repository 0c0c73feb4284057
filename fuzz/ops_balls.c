/* ops_balls.c - many balls stepped at once (op 61: c2d_static_set_step_balls) through the static set
 * and against each other: up to FZ_BALLS balls read one by one or set in a row (alternate ones moving
 * towards each other, so that they meet), masses (NULL, 1, 2, 0.5, fixed, or any number), the move
 * options of a ball step, ball options (restitution, rest speed, max events) and a report that keeps
 * the records, refuses them, or is none.
 *
 * Refused input (a negative count, NULL, a bad dt, mass, ball or option) gives the status of one of
 * its faults and changes no ball, writes no result and reports nothing; a report that refuses gives
 * its status with the same. Accepted: every ball finite with its radius; the result's displacement and
 * velocity zero; the records in time order, each about a ball (id 1 + its index) and a shape of the
 * set (enabled, with its value) or another ball (index -1 - the other's, the two records of a pair
 * adjacent, the lower index first); two balls that start clear of each other (and are not both fixed)
 * end no deeper than the harness's usual tolerance of the scene; no ball ends inside a solid shape of
 * the set that stands still (unless the set's seam tolerance is as large as the ball); the call is the
 * same again without a report; and one ball alone, or any ball that met no other ball in a step not
 * cut short (without a rest speed, which solves slow contacts with the level before the step), ends
 * exactly where c2d_static_set_step_ball puts it, with the same count and path length for one ball
 * (spec/c/test_balls.c, balls_one_ball_is_step_ball). */
#include "fz.h"

#define FZ_BALLS 6
#define FZ_BALL_RECS 4096

static c2d_contact_record fz_balls_rec[FZ_BALL_RECS];

typedef struct fz_balls_report {
    int calls, count, refuse;
} fz_balls_report;

static c2d_status fz_balls_keep(void *ctx, const c2d_contact_record *r, int n)
{
    fz_balls_report *rc = (fz_balls_report *)ctx;
    rc->calls++;
    rc->count = n;
    FZ_CHECK(n >= 0 && (n == 0 || r), "balls report handed %d records at %p", n, (const void *)r);
    if (rc->refuse)
        return C2D_ERR_CAPACITY;
    memcpy(fz_balls_rec, r, (size_t)(n < FZ_BALL_RECS ? n : FZ_BALL_RECS) * sizeof *r);
    return C2D_OK;
}

/* The statuses a call's faults name, as a mask (1 << status). */
static unsigned fz_balls_faults(const fz_state *st, const c2d_ball *b, int n, int null_balls, const double *masses,
                                double dt, const c2d_balls_options *bo, int opt_ok)
{
    unsigned f = 0;
    if (n < 0)
        f |= 1u << C2D_ERR_RANGE;
    if (!st->set || (n > 0 && null_balls))
        f |= 1u << C2D_ERR_NULL;
    if (fz_number_status(dt) != C2D_OK)
        f |= 1u << fz_number_status(dt);
    else if (dt < 0)
        f |= 1u << C2D_ERR_RANGE;
    if (bo) {
        if (!isfinite(bo->restitution) || !isfinite(bo->rest_speed))
            f |= 1u << C2D_ERR_NOT_FINITE;
        else if (bo->restitution < 0 || bo->restitution > 1 || bo->rest_speed < 0 ||
                 bo->rest_speed > C2D_MAX_COORDINATE)
            f |= 1u << C2D_ERR_RANGE;
        if (bo->max_events < 0)
            f |= 1u << C2D_ERR_RANGE;
    }
    for (int i = 0; i < n && !null_balls; i++) {
        c2d_status s[] = {fz_vec_status(b[i].position), fz_vec_status(b[i].velocity), fz_number_status(b[i].radius)};
        for (int k = 0; k < 3; k++)
            if (s[k] != C2D_OK)
                f |= 1u << (unsigned)s[k];
        if (!(b[i].radius > 0) && s[2] == C2D_OK)
            f |= 1u << C2D_ERR_SIZE;
        if (fz_vec_mag(b[i].velocity) * dt > C2D_MAX_COORDINATE)
            f |= 1u << C2D_ERR_RANGE;
        if (masses && (isnan(masses[i]) || masses[i] == -INFINITY))
            f |= 1u << C2D_ERR_NOT_FINITE;
        else if (masses && !(masses[i] > 0))
            f |= 1u << C2D_ERR_RANGE;
    }
    /* The move options are read by each ball's step through the set (none without a ball). */
    if (!opt_ok && n > 0)
        f |= (1u << C2D_ERR_RANGE) | (1u << C2D_ERR_NOT_FINITE);
    return f;
}

/* The scene's size: every ball where it starts, where its velocity takes it and where it ends, and
 * the set. */
static double fz_balls_scale(const fz_state *st, const c2d_ball *b0, const c2d_ball *b1, int n, double dt)
{
    double s = fz_set_scale(st, NULL, fz_v(0, 0), dt);
    for (int i = 0; i < n; i++)
        s = fmax(s, fmax(fz_vec_mag(b0[i].position) + fz_vec_mag(b0[i].velocity) * dt, fz_vec_mag(b1[i].position)) +
                        b0[i].radius);
    return s;
}

void op_set_balls(fz_state *st)
{
    uint8_t mode = fz_byte(st);
    int n = (mode & 7) == 7 ? -1 : (int)(mode & 7) % (FZ_BALLS + 1);
    int nb = n < 0 ? 0 : n;
    c2d_ball b[FZ_BALLS];
    memset(b, 0, sizeof b);
    if (mode & 8) {
        /* A row: balls of one radius a gap apart, alternate ones moving towards each other. */
        c2d_vec2 o = fz_vec(st), v = fz_vec(st);
        double r = fz_number(st), gap = fz_number(st);
        for (int i = 0; i < nb; i++) {
            b[i].position = fz_v(o.x + i * (2 * r + gap), o.y);
            b[i].velocity = fz_v(i % 2 ? -v.x : v.x, v.y);
            b[i].radius = r;
        }
    } else {
        for (int i = 0; i < nb; i++)
            b[i] = fz_ball(st);
    }
    uint8_t mm = fz_byte(st);
    double masses[FZ_BALLS];
    const double *mp = NULL;
    if (mm & 1) {
        for (int i = 0; i < nb; i++) {
            uint8_t k = fz_byte(st);
            static const double fixed[] = {1, 2, 0.5, INFINITY};
            masses[i] = k % 5 < 4 ? fixed[k % 5] : fz_number(st);
        }
        mp = masses;
    }
    double dt = (mode & 0x10) ? fz_number(st) : 1.0;
    c2d_move_options o;
    c2d_response arr[FZ_SET_MAX], resp[FZ_SET_MAX];
    int opt_ok;
    const c2d_move_options *op = fz_move_options(st, &o, arr, st->set_n, C2D_RESPONSE_BOUNCE, resp, &opt_ok);
    uint8_t bm = fz_byte(st);
    c2d_balls_options bo = c2d_balls_options_default();
    const c2d_balls_options *bop = NULL;
    if (bm & 1) {
        bop = &bo;
        if (bm & 2)
            bo.restitution = (bm & 4) ? fz_number(st) : 0.5;
        if (bm & 8)
            bo.rest_speed = (bm & 0x10) ? fz_number(st) : 0.1;
        if (bm & 0x20)
            bo.max_events = (bm & 0x40) ? -1 : 1 + (int)(bm >> 7) * 3;
    }
    int report = (mode >> 5) & 3; /* 0: none; 1, 3: keep; 2: refuse */
    int null_balls = (mode & 0x80) && (bm & 0x80);
    fz_balls_report rc;
    memset(&rc, 0, sizeof rc);
    rc.refuse = report == 2;
    c2d_ball b0[FZ_BALLS];
    memcpy(b0, b, sizeof b);
    c2d_move_result res;
    memset(&res, FZ_POISON, sizeof res);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_step_balls(st->set, null_balls ? NULL : b, mp, n, dt, op, bop, &res,
                                             report ? fz_balls_keep : NULL, &rc);
    fz_check_status(s);
    fz_set_snapshot(st, &after);
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "stepping balls changed the set");
    unsigned faults = fz_balls_faults(st, b0, n, null_balls, mp, dt, bop, opt_ok);
    if (fz_trace) {
        fprintf(stderr, " -> %d balls dt %.17g: %d (faults %#x) count %d truncated %d", n, dt, (int)s, faults,
                s == C2D_OK ? res.count : -1, s == C2D_OK ? res.truncated : -1);
        for (int i = 0; s == C2D_OK && i < nb; i++)
            fprintf(stderr, "\n  ball %d: (%.17g, %.17g) v (%.17g, %.17g) r %.17g -> (%.17g, %.17g) v (%.17g, %.17g)", i,
                    b0[i].position.x, b0[i].position.y, b0[i].velocity.x, b0[i].velocity.y, b0[i].radius,
                    b[i].position.x, b[i].position.y, b[i].velocity.x, b[i].velocity.y);
    }
    if (faults || s != C2D_OK) {
        FZ_CHECK(s == C2D_ERR_NO_MEMORY || (s != C2D_OK && ((1u << (unsigned)s) & faults)) ||
                     (!faults && rc.refuse && s == C2D_ERR_CAPACITY),
                 "step_balls gave %d, which names none of its faults (%#x)", (int)s, faults);
        FZ_CHECK(memcmp(b, b0, sizeof b) == 0 && fz_is_poison(&res, sizeof res),
                 "refused step_balls (%d) changed a ball or wrote its result", (int)s);
        FZ_CHECK(rc.calls == (s == C2D_ERR_CAPACITY && rc.refuse && !faults),
                 "refused step_balls (%d) reported %d times", (int)s, rc.calls);
        return;
    }
    FZ_CHECK(!rc.refuse, "step_balls accepted though its report refused");
    for (int i = 0; i < n; i++)
        FZ_CHECK(fz_finite_vec(b[i].position) && fz_finite_vec(b[i].velocity) && b[i].radius == b0[i].radius,
                 "ball %d after the step: (%g, %g) v (%g, %g) r %g", i, b[i].position.x, b[i].position.y,
                 b[i].velocity.x, b[i].velocity.y, b[i].radius);
    FZ_CHECK(res.displacement.x == 0 && res.displacement.y == 0 && res.velocity.x == 0 && res.velocity.y == 0 &&
                 isfinite(res.travelled) && res.travelled >= 0 && res.count >= 0 &&
                 (res.truncated == 0 || res.truncated == 1),
             "step_balls result: displacement (%g, %g) velocity (%g, %g) travelled %g count %d truncated %d",
             res.displacement.x, res.displacement.y, res.velocity.x, res.velocity.y, res.travelled, res.count,
             res.truncated);
    /* The records, and which balls met another ball. */
    int met_ball[FZ_BALLS];
    memset(met_ball, 0, sizeof met_ball);
    int known = report && res.count <= FZ_BALL_RECS;
    if (report)
        FZ_CHECK(rc.calls == 1 && rc.count == res.count, "step_balls reported %d times, %d records of %d", rc.calls,
                 rc.count, res.count);
    double last = 0;
    for (int q = 0; known && q < res.count; q++) {
        const c2d_contact_record *r = &fz_balls_rec[q];
        int i = (int)r->id - 1, k = r->contact.index;
        FZ_CHECK(r->id >= 1 && i < n, "balls record %d has id %llu of %d balls", q, (unsigned long long)r->id, n);
        FZ_CHECK(isfinite(r->contact.t) && r->contact.t >= last && r->contact.t <= 1, "balls record %d at t %.17g after %.17g",
                 q, r->contact.t, last);
        last = r->contact.t;
        fz_check_unit(r->contact.normal, "balls record normal");
        FZ_CHECK(fz_finite_vec(r->position) && fz_finite_vec(r->velocity) && fz_finite_vec(r->contact.point),
                 "balls record %d not finite", q);
        if (k >= 0) {
            FZ_CHECK(k < st->set_n && st->set_on[k] && r->user == st->set_user[k],
                     "balls record %d (ball %d) names shape %d (user %llu)", q, i, k, (unsigned long long)r->user);
            continue;
        }
        int j = -1 - k;
        FZ_CHECK(j >= 0 && j < n && j != i && r->contact.response == C2D_RESPONSE_BOUNCE,
                 "balls record %d: ball %d met ball %d (response %d)", q, i, j, (int)r->contact.response);
        /* A pair's two records together, the lower index's first. */
        if (i < j) {
            FZ_CHECK(q + 1 < res.count && fz_balls_rec[q + 1].id == (c2d_world_id)(j + 1) &&
                         fz_balls_rec[q + 1].contact.index == -1 - i,
                     "balls record %d (ball %d meets ball %d) is not followed by ball %d's", q, i, j, j);
        } else {
            FZ_CHECK(q > 0 && fz_balls_rec[q - 1].id == (c2d_world_id)(j + 1) && fz_balls_rec[q - 1].contact.index == -1 - i,
                     "balls record %d (ball %d meets ball %d) does not follow ball %d's", q, i, j, j);
        }
        met_ball[i] = 1;
    }
    /* The same again, without a report. */
    c2d_ball again[FZ_BALLS];
    memcpy(again, b0, sizeof again);
    c2d_move_result res2;
    FZ_CHECK(c2d_static_set_step_balls(st->set, again, mp, n, dt, op, bop, &res2, NULL, NULL) == C2D_OK &&
                 memcmp(again, b, sizeof again) == 0 && fz_result_same(&res, &res2),
             "step_balls again without a report gave another answer");
    double scale = fz_balls_scale(st, b0, b, n, dt);
    double tol = FZ_REL_TOL * 4 * (1 + scale);
    /* Balls that start clear of each other never end overlapping (two fixed balls pass through each
     * other), also when one starts inside a solid shape of the set and is pushed out onto another
     * (FZ_STRICT_BALLS_PUSH_OUT=0 leaves those out, see fz_strict_balls). */
    int inside[FZ_BALLS];
    for (int i = 0; i < n; i++) {
        inside[i] = 0;
        c2d_shape *ball = NULL;
        if (!fz_strict_balls && c2d_circle_new(b0[i].position.x, b0[i].position.y, b0[i].radius, &ball) == C2D_OK) {
            int w;
            inside[i] = fz_set_clearance(st, ball, fz_v(0, 0), 0, 0, resp, &w) < -tol;
            c2d_shape_destroy(ball);
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if ((mp && mp[i] == INFINITY && mp[j] == INFINITY) || inside[i] || inside[j])
                continue;
            double R = b0[i].radius + b0[j].radius;
            double d0 = fz_len(fz_sub(b0[j].position, b0[i].position)), d1 = fz_len(fz_sub(b[j].position, b[i].position));
            if (!(d0 - R > tol))
                continue;
            FZ_CHECK(!(d1 - R < -tol), "balls %d and %d started %.3g apart and end %.17g deep (tol %g)", i, j, d0 - R,
                     R - d1, tol);
        }
    /* No ball ends inside a solid shape of the set that stands still. */
    c2d_response end_resp[FZ_SET_MAX];
    for (int k = 0; k < st->set_n; k++)
        end_resp[k] = fz_member_moves(st, k) ? C2D_RESPONSE_NONE : resp[k];
    for (int i = 0; i < n; i++) {
        if (st->set_seam_tol >= 2 * b0[i].radius)
            continue;
        c2d_shape *ball = NULL;
        if (c2d_circle_new(b[i].position.x, b[i].position.y, b[i].radius, &ball) != C2D_OK)
            continue;
        int w;
        double d1 = fz_set_clearance(st, ball, fz_v(0, 0), 0, 0, end_resp, &w);
        c2d_shape_destroy(ball);
        FZ_CHECK(!(d1 < -tol), "ball %d of %d ends %.17g inside shape %d (tol %g)", i, n, -d1, w, tol);
    }
    /* One ball alone, and a ball that met no other (the step not cut short, no rest speed), as
     * c2d_static_set_step_ball takes it. */
    int rest = bop && bop->rest_speed != 0;
    for (int i = 0; i < n && !rest; i++) {
        if (n > 1 && (!known || met_ball[i] || res.truncated))
            continue;
        c2d_ball one = b0[i];
        c2d_move_result r1;
        FZ_CHECK(c2d_static_set_step_ball(st->set, &one, dt, op, &r1, NULL, 0) == C2D_OK, "step_ball refused ball %d", i);
        FZ_CHECK(memcmp(&one, &b[i], sizeof one) == 0,
                 "ball %d of %d (no ball contact) ends at (%.17g, %.17g) v (%.17g, %.17g), step_ball at (%.17g, %.17g) v "
                 "(%.17g, %.17g)",
                 i, n, b[i].position.x, b[i].position.y, b[i].velocity.x, b[i].velocity.y, one.position.x,
                 one.position.y, one.velocity.x, one.velocity.y);
        if (n == 1)
            FZ_CHECK(r1.count == res.count && fz_same_bits(r1.travelled, res.travelled) && r1.truncated == res.truncated,
                     "one ball: count %d travelled %.17g truncated %d, step_ball %d %.17g %d", res.count, res.travelled,
                     res.truncated, r1.count, r1.travelled, r1.truncated);
    }
}
