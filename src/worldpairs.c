/* worldpairs.c - every pair of entries whose shapes overlap: the pair cache's candidates (settled by
 * world.c) put in the world's order as 64-bit keys (rank of a, rank of b) by a radix sort, because a
 * frame of 40,000 moving shapes can have a hundred thousand pairs and a comparison sort would cost
 * more than finding them, then the narrow phase and the pair filter. Layer 7, the world. */
#include "world.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Writes pair m of a pairs answer (and its contact on request). The contact of two polygons of more
 * than C2D_PAIR_STACK vertices each needs memory, so this can fail with C2D_ERR_NO_MEMORY. */
static c2d_status write_pair(c2d_world_pair *out, c2d_contact *contacts, size_t m, int ia, const entry *a, int ib,
                             const entry *b)
{
    out[m].a = c2d_make_id(ia, a->gen);
    out[m].b = c2d_make_id(ib, b->gen);
    out[m].user_a = a->user;
    out[m].user_b = b->user;
    return contacts ? c2d_collide(a->shape, b->shape, &contacts[m]) : C2D_OK;
}

/* ---- pairs ------------------------------------------------------------------------------------ */

typedef struct kv {
    uint64_t key;
    uint64_t val;
} kv;

/* Stable LSD radix sort of n keys, RADIX_BITS a pass, skipping the passes whose digit is the same in
 * every key: pair keys of ranks below 2^16 need 3 passes of 11 bits, not 4 of 8. The passes go back
 * and forth between a and tmp (n keys); returns the one holding the result. */
#define RADIX_BITS 11
#define RADIX_SIZE (1 << RADIX_BITS)
static uint64_t *radix_sort64(uint64_t *a, uint64_t *tmp, size_t n)
{
    uint64_t all_or = 0, all_and = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++) {
        all_or |= a[i];
        all_and &= a[i];
    }
    uint64_t varies = all_or ^ all_and;
    size_t counts[RADIX_SIZE];
    for (int shift = 0; shift < 64; shift += RADIX_BITS) {
        if (!((varies >> shift) & (RADIX_SIZE - 1)))
            continue;
        memset(counts, 0, sizeof counts);
        for (size_t i = 0; i < n; i++)
            counts[(a[i] >> shift) & (RADIX_SIZE - 1)]++;
        size_t sum = 0;
        for (int b = 0; b < RADIX_SIZE; b++) {
            size_t c = counts[b];
            counts[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[counts[(a[i] >> shift) & (RADIX_SIZE - 1)]++] = a[i];
        uint64_t *x = a;
        a = tmp;
        tmp = x;
    }
    return a;
}

/* The same for (key, val) items, 8 bits a pass; the result ends in a. tmp holds n items. */
static void radix_sort(kv *a, kv *tmp, size_t n)
{
    uint64_t all_or = 0, all_and = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++) {
        all_or |= a[i].key;
        all_and &= a[i].key;
    }
    uint64_t varies = all_or ^ all_and;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!((varies >> shift) & 0xFF))
            continue;
        size_t counts[256] = {0};
        for (size_t i = 0; i < n; i++)
            counts[(a[i].key >> shift) & 0xFF]++;
        size_t sum = 0;
        for (int b = 0; b < 256; b++) {
            size_t c = counts[b];
            counts[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[counts[(a[i].key >> shift) & 0xFF]++] = a[i];
        memcpy(a, tmp, n * sizeof *a);
    }
}

/* rank[slot] for every live slot, increasing in the world's order, and order[rank] = slot. When the
 * user values already increase with the slots (a user value that is an index, handed out in order,
 * or all equal) the slots are their own ranks and no sort is needed. */
static int rank_entries(const c2d_world *w, uint32_t *rank, uint32_t *order)
{
    int sorted = 1, have = 0;
    uintptr_t last = 0;
    for (int i = 0; i < w->slots && sorted; i++) {
        const entry *e = &w->entries[i];
        if (!e->shape)
            continue;
        if (have && e->user < last)
            sorted = 0;
        last = e->user;
        have = 1;
    }
    if (sorted) {
        for (int i = 0; i < w->slots; i++)
            rank[i] = order[i] = (uint32_t)i;
        return 1;
    }
    size_t n = (size_t)w->count;
    kv *a = (kv *)malloc(2 * n * sizeof *a);
    if (!a)
        return 0;
    size_t k = 0;
    for (int i = 0; i < w->slots; i++)
        if (w->entries[i].shape) {
            a[k].key = (uint64_t)w->entries[i].user;
            a[k].val = (uint64_t)i;
            k++;
        }
    radix_sort(a, a + n, n); /* stable: equal users stay in slot order, which is id order */
    for (size_t r = 0; r < n; r++) {
        rank[a[r].val] = (uint32_t)r;
        order[r] = (uint32_t)a[r].val;
    }
    free(a);
    return 1;
}

/* One pair to put in order again after a pair filter re-valued entries. */
typedef struct pair_key {
    uintptr_t ua, ub;
    c2d_world_id ia, ib;
    uint32_t sa, sb;
} pair_key;

static int cmp_pair_key(const void *pa, const void *pb)
{
    const pair_key *a = (const pair_key *)pa, *b = (const pair_key *)pb;
    int c = c2d_cmp_key(a->ua, a->ia, b->ua, b->ia);
    return c ? c : c2d_cmp_key(a->ub, a->ib, b->ub, b->ib);
}

/* Puts the n pairs of keys (first rank << rbits | second rank, ranks in order[]) in the world's order
 * as the entries' user values now have it: each pair's first entry before its second, the pairs by
 * their first entry, then their second. Leaves each as (first slot << 32) | second slot. 0 when out
 * of memory. */
static int sort_pairs(const c2d_world *w, uint64_t *keys, size_t n, const uint32_t *order, int rbits,
                      uint64_t rmask)
{
    pair_key *p = (pair_key *)malloc((n ? n : 1) * sizeof *p);
    if (!p)
        return 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t sa = order[keys[k] >> rbits], sb = order[keys[k] & rmask];
        const entry *a = &w->entries[sa], *b = &w->entries[sb];
        c2d_world_id ia = c2d_entry_id(w, a), ib = c2d_entry_id(w, b);
        if (c2d_cmp_key(b->user, ib, a->user, ia) < 0) {
            uint32_t ts = sa;
            const entry *te = a;
            c2d_world_id ti = ia;
            sa = sb, a = b, ia = ib;
            sb = ts, b = te, ib = ti;
        }
        p[k].ua = a->user;
        p[k].ub = b->user;
        p[k].ia = ia;
        p[k].ib = ib;
        p[k].sa = sa;
        p[k].sb = sb;
    }
    if (n > 1)
        qsort(p, n, sizeof *p, cmp_pair_key);
    for (size_t k = 0; k < n; k++)
        keys[k] = ((uint64_t)p[k].sa << 32) | p[k].sb;
    free(p);
    return 1;
}

c2d_status c2d_world_pairs(c2d_world *world, c2d_world_pair *out, c2d_contact *contacts, int capacity, int *count)
{
    c2d_status st = c2d_check_out(world, out, capacity, count);
    if (st)
        return st;
    c2d_world *w = world;
    if (!c2d_world_flush_moves(w))
        return C2D_ERR_NO_MEMORY;
    size_t slots = (size_t)(w->slots ? w->slots : 1);
    uint32_t *rank = (uint32_t *)malloc(2 * slots * sizeof *rank);
    /* With a pair filter, which may change the world: each entry's user value and generation now. */
    uintptr_t *users = w->pair_fn ? (uintptr_t *)malloc(slots * (sizeof *users + sizeof(unsigned))) : NULL;
    unsigned *gens = users ? (unsigned *)(users + slots) : NULL;
    uint64_t *keys = (uint64_t *)malloc((2 * (size_t)w->pr_used + 1) * sizeof *keys);
    if (!rank || !keys || (w->pair_fn && !gens) || !rank_entries(w, rank, rank + slots)) {
        free(rank);
        free(users);
        free(keys);
        return C2D_ERR_NO_MEMORY;
    }
    const uint32_t *order = rank + slots;
    /* Ranks are below `slots`: a key is (first rank << rbits) | second rank, as narrow as it can be,
     * so that 40,000 entries make 32-bit keys that sort in three passes. */
    int rbits = 1;
    while (rbits < 32 && ((size_t)1 << rbits) < slots)
        rbits++;
    const uint64_t rmask = ((uint64_t)1 << rbits) - 1;
    /* Keep the cached pairs (their bits already pass) whose tight boxes meet, keyed (first rank,
     * second rank) in the world's order. */
    size_t nk = 0;
    for (int p = 0; p < w->pr_used; p++) {
        int ia = w->prs[p].e[0], ib = w->prs[p].e[1];
        if (ia < 0 || c2d_slot_disabled(w, ia) || c2d_slot_disabled(w, ib))
            continue;
        if (!c2d_aabb_overlaps(&w->entries[ia].tight, &w->entries[ib].tight))
            continue;
        uint64_t ra = rank[ia], rb = rank[ib];
        keys[nk++] = ra < rb ? (ra << rbits) | rb : (rb << rbits) | ra;
    }
    uint64_t *sorted = radix_sort64(keys, keys + nk, nk);
    if (gens)
        for (int i = 0; i < w->slots; i++) {
            gens[i] = w->entries[i].shape ? w->entries[i].gen : 0;
            users[i] = w->entries[i].user;
        }
    if (!gens && nk <= (size_t)capacity) {
        /* No pair filter and room for every candidate: the narrow phase writes the pairs out as it
         * finds them, reading each pair's entries once. (Otherwise nothing may be written to out
         * before the count is known to fit.) */
        size_t m = 0;
        for (size_t k = 0; k < nk; k++) {
            uint32_t ia = order[sorted[k] >> rbits], ib = order[sorted[k] & rmask];
            const entry *a = &w->entries[ia], *b = &w->entries[ib];
            int hit = 0;
            st = c2d_overlap(a->shape, b->shape, &hit);
            if (st == C2D_OK && hit)
                st = write_pair(out, contacts, m++, (int)ia, a, (int)ib, b);
            if (st != C2D_OK) {
                /* Out of memory: what was written so far is not an answer. */
                *count = 0;
                free(rank);
                free(keys);
                return st;
            }
        }
        *count = (int)m;
        free(rank);
        free(keys);
        return C2D_OK;
    }
    /* Narrow phase, in order; the pair filter may change the world, so entries are checked again. */
    size_t n = 0;
    int revalued = 0;
    for (size_t k = 0; k < nk; k++) {
        uint32_t ia = order[sorted[k] >> rbits], ib = order[sorted[k] & rmask];
        const entry *a = &w->entries[ia], *b = &w->entries[ib];
        if (gens) {
            if (!a->shape || a->gen != gens[ia] || !b->shape || b->gen != gens[ib])
                continue;
            if (!w->pair_fn(w->pair_ctx, c2d_make_id((int)ia, a->gen), a->user, c2d_make_id((int)ib, b->gen), b->user))
                continue;
            a = &w->entries[ia]; /* the callback may have grown the entry array */
            b = &w->entries[ib];
            if (!a->shape || a->gen != gens[ia] || !b->shape || b->gen != gens[ib])
                continue;
            if (c2d_slot_disabled(w, (int)ia) || c2d_slot_disabled(w, (int)ib))
                continue; /* the callback disabled one */
        }
        int hit = 0;
        if (c2d_overlap(a->shape, b->shape, &hit) != C2D_OK) {
            *count = 0;
            free(rank);
            free(users);
            free(keys);
            return C2D_ERR_NO_MEMORY;
        }
        if (hit)
            sorted[n++] = sorted[k];
    }
    /* A pair filter may have removed an entry of a pair it had already accepted (the pair goes), or
     * re-valued one (the pair keeps its place only if the world's order is unchanged). */
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t ia = order[sorted[k] >> rbits], ib = order[sorted[k] & rmask];
        const entry *a = &w->entries[ia], *b = &w->entries[ib];
        if (gens && (!a->shape || a->gen != gens[ia] || !b->shape || b->gen != gens[ib]))
            continue;
        revalued |= gens && (a->user != users[ia] || b->user != users[ib]);
        sorted[m++] = sorted[k];
    }
    n = m;
    if (revalued && !sort_pairs(w, sorted, n, order, rbits, rmask)) {
        *count = 0;
        free(rank);
        free(users);
        free(keys);
        return C2D_ERR_NO_MEMORY;
    }
    *count = (int)n;
    if (c2d_count_only(out, capacity) || n > (size_t)capacity) {
        free(rank);
        free(users);
        free(keys);
        return c2d_count_only(out, capacity) ? C2D_OK : C2D_ERR_CAPACITY;
    }
    for (size_t k = 0; k < n; k++) {
        /* Ranks in the world's order of the call's start, or slots in its order now (sort_pairs). */
        uint32_t ia = revalued ? (uint32_t)(sorted[k] >> 32) : order[sorted[k] >> rbits];
        uint32_t ib = revalued ? (uint32_t)(sorted[k] & 0xFFFFFFFFu) : order[sorted[k] & rmask];
        if (write_pair(out, contacts, k, (int)ia, &w->entries[ia], (int)ib, &w->entries[ib]) != C2D_OK) {
            *count = 0;
            free(rank);
            free(users);
            free(keys);
            return C2D_ERR_NO_MEMORY;
        }
    }
    free(rank);
    free(users);
    free(keys);
    return C2D_OK;
}
