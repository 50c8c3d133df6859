/* peers_bullet.cpp - the chain of n rods in Bullet 3.24 btMultiBody (Debian libbullet-dev,
 * double precision: bullet-float64), for build/hilstep-peers: a fixed base, n revolute links
 * about z, gravity -y, fixed step h (stepSimulation(h, 1, h)), damping off, no collision
 * objects, the joint speed clamp lifted (its default of 100 rad/s would cut the whip).
 * Reduced (joint) coordinates, Featherstone's articulated-body algorithm, semi-implicit Euler:
 * no joint separation by construction. A C interface for test/peers/peers.c. */
#include <btBulletDynamicsCommon.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
#include <cmath>
#include <new>

namespace {
struct btx {
    btDefaultCollisionConfiguration cfg;
    btCollisionDispatcher disp{&cfg};
    btDbvtBroadphase bp;
    btMultiBodyConstraintSolver solver;
    btMultiBodyDynamicsWorld world{&disp, &bp, &solver, &cfg};
    btMultiBody *mb = nullptr;
    int n = 0;
    double h = 0;
    ~btx()
    {
        if (mb) {
            world.removeMultiBody(mb);
            delete mb;
        }
    }
};
} // namespace

extern "C" {

/* version string of the library the binary was built against */
const char *hs_peers_bullet_version(void) { return "3.24"; }

void *hs_peers_bullet_make(int n, double h)
{
    btx *x = new (std::nothrow) btx;
    if (!x) return nullptr;
    x->n = n;
    x->h = h;
    x->world.setGravity(btVector3(0, -9.81, 0));
    /* rods of 1 m, 1 kg, the mass at the middle, m L^2 / 12 about z (5e-5 about the rod) */
    const btVector3 inertia(5e-5, 1.0 / 12.0, 1.0 / 12.0);
    x->mb = new btMultiBody(n, 0.0, btVector3(0, 0, 0), true, false);
    for (int i = 0; i < n; ++i) {
        x->mb->setupRevolute(i, 1.0, inertia, i - 1, btQuaternion(0, 0, 0, 1), btVector3(0, 0, 1),
                             i == 0 ? btVector3(0, 0, 0) : btVector3(0.5, 0, 0),
                             btVector3(0.5, 0, 0), true);
    }
    x->mb->finalizeMultiDof();
    x->mb->setLinearDamping(0);
    x->mb->setAngularDamping(0);
    x->mb->setMaxCoordinateVelocity(1e30);
    x->mb->setCanSleep(false);
    x->mb->setHasSelfCollision(false);
    x->world.addMultiBody(x->mb);
    return x;
}

int hs_peers_bullet_step(void *p)
{
    btx *x = static_cast<btx *>(p);
    return x->world.stepSimulation(x->h, 1, x->h) == 1 ? 0 : 1;
}

/* the energy from the joint angles and rates (rod i's direction is the sum of the first i + 1
 * joint angles, its centre half a rod past its pivot): kinetic of the centres and the spin
 * about z, gravity -y */
double hs_peers_bullet_energy(void *p)
{
    btx *x = static_cast<btx *>(p);
    double th = 0, w = 0, px = 0, py = 0, vx = 0, vy = 0, E = 0;
    for (int i = 0; i < x->n; ++i) {
        th += x->mb->getJointPos(i);
        w += x->mb->getJointVel(i);
        const double c = std::cos(th), s = std::sin(th);
        const double cy = py + 0.5 * s, cvx = vx - 0.5 * w * s, cvy = vy + 0.5 * w * c;
        E += 0.5 * (cvx * cvx + cvy * cvy) + 0.5 * w * w / 12.0 + 9.81 * cy;
        px += c; py += s; vx -= w * s; vy += w * c;
    }
    (void)px;
    return E;
}

void hs_peers_bullet_drop(void *p) { delete static_cast<btx *>(p); }
}
