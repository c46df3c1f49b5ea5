import gc, time, sys
_t = {}
def cb(phase, info):
    if phase == "start":
        _t["s"] = time.perf_counter()
    else:
        d = (time.perf_counter() - _t.get("s", time.perf_counter())) * 1000
        if d > 5:
            print(f"GC gen{info['generation']} {d:.1f} ms collected={info['collected']}", file=sys.stderr, flush=True)
gc.callbacks.append(cb)
_done = [0]
def cb2(phase, info):
    if phase == "stop" and info["generation"] == 2 and _done[0] < 2 and (time.perf_counter() - _t["s"]) > 0.05:
        _done[0] += 1
        import collections
        objs = gc.get_objects()
        c = collections.Counter(type(o).__qualname__ for o in objs)
        print("OBJECTS", len(objs), c.most_common(25), file=sys.stderr, flush=True)
        del objs
gc.callbacks.append(cb2)
