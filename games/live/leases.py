"""The leases in Redis by which the server processes know one another.

A process owns a game while it holds the game's owner key, set to the
process's channel name (so the key also says where the game's messages
go), and counts as alive while it holds its node key. Each lease lasts
``LEASE_SECONDS`` from its last renewal by the process's heartbeat
(``hall``); the keys are named here because both the hall, which takes and
renews them, and the relay, which reads them to reach other processes, use
them.
"""

from __future__ import annotations

LEASE_SECONDS = 6.0
# How often the heartbeat renews them.
HEARTBEAT_SECONDS = 2.0


def owner_key(game_id: int) -> str:
    return f"pulka:live:{game_id}:owner"


def node_key(node: str) -> str:
    return f"pulka:live:node:{node}"


# Lua scripts, run atomically by Redis (``hall``).

# The leases still held by this process (ARGV[1]) renewed for ARGV[2] ms.
# One that is gone (Redis lost it: a failover to a replica it had not
# reached, a restart) is taken again, since no other process holds it; one
# another process holds is not.
RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    out[i] = 1
  elseif holder == false then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
# The games' leases taken by this process (ARGV[1]): those nobody holds,
# and those handed to it by name (``hand_back``), which it has not read yet.
TAKE = """
local out = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == false or holder == ARGV[1] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
# A lease passed from its holder (ARGV[1]) to another process (ARGV[2]).
PASS = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""
