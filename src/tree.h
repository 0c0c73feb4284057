/* tree.h - the private dynamic AABB tree under the world (see tree.c for the algorithms).
 *
 * A binary tree of boxes in one array of 64-byte nodes (one cache line each). Leaves carry a fattened
 * box, the index of the world entry they stand for, that entry's category and mask bits and its shape
 * (in the place an internal node keeps its second child), so the hot loops (pair finding, queries, ray
 * casts) reject by bits and reach the shape without touching the entry. Internal nodes carry the
 * union of their children's boxes and their height, used for the AVL-style rotations that keep the
 * tree balanced as leaves come and go. The tree never calls user code: the world collects candidates
 * first and runs callbacks afterwards, so user callbacks can never see a tree in mid-change.
 */
#ifndef C2D_TREE_H
#define C2D_TREE_H

#include "shape.h"

#define C2D_TREE_NULL (-1)

typedef struct c2d_tree_node {
    c2d_aabb box;      /* fattened box (leaf) or union of the children (internal) */
    int parent;        /* parent node, or next free node while on the free list */
    int child1;        /* C2D_TREE_NULL for a leaf */
    int height;        /* 0 for a leaf, -1 while free */
    unsigned category; /* leaf: the entry's bits; internal: unused */
    unsigned mask;
    int item;          /* leaf: the world entry index */
    union {
        struct {
            int child2;
            /* Where the children start treelets (see c2d_tree_rebuild), their sizes in nodes,
             * child1's in bits 0-7 and child2's in bits 8-15; otherwise 0. A prefetching hint. */
            int treelets;
        } in;              /* internal node */
        const void *data;  /* leaf: the owner's pointer (the world's: the entry's shape) */
    } u;
} c2d_tree_node;

/* Levels per treelet of a rebuilt tree: a treelet's nodes are consecutive, so a walk entering one can
 * fetch all 2^levels - 1 of them at once. */
#ifndef C2D_TREELET_LEVELS
#define C2D_TREELET_LEVELS 3
#endif

typedef struct c2d_tree {
    c2d_tree_node *nodes;
    int root;
    int capacity;
    int used;       /* nodes in use (leaves and internal) */
    int free_list;
} c2d_tree;

/* A growable array of ints, used for traversal stacks and candidate lists. It starts on a small
 * inline buffer so that most queries never allocate. */
typedef struct c2d_ivec {
    int *data;
    int count;
    int capacity;
    int failed;     /* an allocation failed: the contents are incomplete */
    int inline_buf[64];
} c2d_ivec;

void c2d_ivec_init(c2d_ivec *v);
void c2d_ivec_free(c2d_ivec *v);
/* Appends x; on allocation failure sets v->failed and drops x. */
void c2d_ivec_push_slow(c2d_ivec *v, int x);
static inline void c2d_ivec_push(c2d_ivec *v, int x)
{
    if (v->count < v->capacity)
        v->data[v->count++] = x;
    else
        c2d_ivec_push_slow(v, x);
}

static inline int c2d_aabb_overlaps(const c2d_aabb *a, const c2d_aabb *b)
{
    return a->min.x <= b->max.x && b->min.x <= a->max.x && a->min.y <= b->max.y && b->min.y <= a->max.y;
}
static inline int c2d_aabb_contains(const c2d_aabb *outer, const c2d_aabb *inner)
{
    return outer->min.x <= inner->min.x && outer->min.y <= inner->min.y && inner->max.x <= outer->max.x &&
           inner->max.y <= outer->max.y;
}

void c2d_tree_init(c2d_tree *t);
void c2d_tree_free(c2d_tree *t);
/* Makes sure `extra_leaves` more leaves can be inserted without allocating (each needs up to two
 * nodes). Returns 0 on allocation failure, with the tree unchanged. */
int c2d_tree_reserve(c2d_tree *t, int extra_leaves);
/* Inserts a leaf; the caller has reserved room. Returns the leaf's node index. */
int c2d_tree_insert(c2d_tree *t, c2d_aabb box, int item, unsigned category, unsigned mask);
void c2d_tree_remove(c2d_tree *t, int leaf);
/* Gives a leaf a new box, re-placing it near where it was (see tree.c). Needs no free nodes; returns
 * the leaf's node index, which does not change. */
int c2d_tree_move(c2d_tree *t, int leaf, c2d_aabb box);
/* Leaves whose box overlaps `box` (touching counts), appended to out as node indices. */
void c2d_tree_query(const c2d_tree *t, c2d_aabb box, c2d_ivec *out);
/* 1 when some leaf's box overlaps `box` (touching counts), else 0: a query that needs no list. */
int c2d_tree_any(const c2d_tree *t, c2d_aabb box);
/* Every pair of leaves whose boxes overlap, each once, appended to out as two node indices. */
void c2d_tree_self_pairs(const c2d_tree *t, c2d_ivec *out);
/* Height of the tree (0 for one leaf, -1 when empty), for tests and benchmarks. */
int c2d_tree_height(const c2d_tree *t);
/* Checks every structural invariant (parents, heights, boxes equal to their children's union, node
 * counts). Returns 1 when the tree is sound. For tests. */
int c2d_tree_validate(const c2d_tree *t);
/* Rebuilds the internal nodes top-down by median splits of the leaves' centres along the longer axis:
 * a better tree for queries on a world that no longer changes much, and far faster than inserting a
 * million leaves one by one. The nodes are then renumbered into treelets (see tree.c), so leaves too
 * move to other node indices: the caller finds each leaf's new index by its item. Returns 0 on
 * allocation failure, with the tree unchanged. */
int c2d_tree_rebuild(c2d_tree *t);

#endif
