// The Lua scripts behind RedisSpendCounters: one script per operation, so each operation is one
// atomic round-trip. Every script starts by sweeping lapsed leases (a sorted set of lease expiries),
// so no timer or worker is needed.
//
// Keys, all under one prefix (give it a hash tag such as `{switchyard:spend}:` so they share a slot):
//   <prefix>s:<scopeId>   hash {spent, reserved}       integer nano-dollars (HINCRBY: exact 64-bit)
//   <prefix>r:<id>        hash {state, amount, scopes, settled, forgetAt}   scopes = JSON [[scopeId, ttlSeconds], ...]
//                         (a settled or released reservation keeps only state, settled and forgetAt)
//   <prefix>rec:<id>      string: the epoch ms at which a `record` id may be forgotten
// Idempotency memory is judged by the injected clock (`forgetAt`); Redis TTLs only collect garbage.
//   <prefix>leases        sorted set: reservation id -> epoch ms its lease lapses
// Every script takes ARGV[1] = prefix, ARGV[2] = now (epoch ms, from the injected clock),
// ARGV[3] = retention (ms). The limit comparison runs in Lua doubles, so it is exact while
// spent + reserved + amount and the limit stay below 2^53 nano-dollars (about 9 million USD) per scope.

const prelude = `
local prefix = ARGV[1]
local now = tonumber(ARGV[2])
local retention = tonumber(ARGV[3])
local leasesKey = prefix .. 'leases'

local function touch(key, ttl)
  if ttl > 0 then redis.call('EXPIRE', key, ttl) end
end

local function dropHold(scopes, amount)
  if amount == '0' then return end
  for _, scope in ipairs(scopes) do
    local key = prefix .. 's:' .. scope[1]
    if redis.call('EXISTS', key) == 1 then redis.call('HINCRBY', key, 'reserved', '-' .. amount) end
  end
end

local function loadReservation(key)
  local fields = redis.call('HMGET', key, 'state', 'amount', 'scopes', 'settled', 'forgetAt')
  if fields[1] and tonumber(fields[5]) <= now then
    redis.call('DEL', key)
    return {false}
  end
  return fields
end

local function finish(key, state)
  redis.call('HSET', key, 'state', state, 'forgetAt', now + retention)
  redis.call('PEXPIRE', key, retention)
end

local function sweep()
  local lapsed = redis.call('ZRANGEBYSCORE', leasesKey, '-inf', now, 'LIMIT', 0, 1000)
  for _, id in ipairs(lapsed) do
    local key = prefix .. 'r:' .. id
    local fields = redis.call('HMGET', key, 'state', 'amount', 'scopes')
    if fields[1] == 'held' then
      dropHold(cjson.decode(fields[3]), fields[2])
      finish(key, 'expired')
    end
    redis.call('ZREM', leasesKey, id)
  end
end

sweep()
`

/** KEYS: leases, reservation, scope... ARGV[4..]: id, amount, leaseMs, scopesJson, limit per scope ('' = none). */
export const reserveScript = `${prelude}
local id, amount, leaseMs, scopesJson = ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7]
local state = loadReservation(KEYS[2])[1]
if state then return {'duplicate', state} end
local scopes = cjson.decode(scopesJson)
for i = 1, #scopes do
  local limit = ARGV[7 + i]
  if limit ~= '' then
    local balance = redis.call('HMGET', KEYS[2 + i], 'spent', 'reserved')
    local spent, reserved = balance[1] or '0', balance[2] or '0'
    if tonumber(spent) + tonumber(reserved) + tonumber(amount) > tonumber(limit) then
      return {'refused', tostring(i), spent, reserved}
    end
  end
end
for i = 1, #scopes do
  redis.call('HINCRBY', KEYS[2 + i], 'reserved', amount)
  touch(KEYS[2 + i], scopes[i][2])
end
redis.call('HSET', KEYS[2], 'state', 'held', 'amount', amount, 'scopes', scopesJson, 'forgetAt', now + leaseMs + retention)
redis.call('PEXPIRE', KEYS[2], leaseMs + retention)
redis.call('ZADD', KEYS[1], now + leaseMs, id)
return {'admitted'}
`

/** KEYS: leases, reservation. ARGV[4..]: id, actual. */
export const settleScript = `${prelude}
local id, actual = ARGV[4], ARGV[5]
local fields = loadReservation(KEYS[2])
local state = fields[1]
if not state then return {'unknown'} end
if state == 'settled' then return {'settled', fields[4]} end
if state == 'released' then return {'released'} end
local scopes = cjson.decode(fields[3])
if state == 'held' then dropHold(scopes, fields[2]) end
for _, scope in ipairs(scopes) do
  local key = prefix .. 's:' .. scope[1]
  redis.call('HINCRBY', key, 'spent', actual)
  touch(key, scope[2])
end
redis.call('HSET', KEYS[2], 'settled', actual)
finish(KEYS[2], 'settled')
redis.call('HDEL', KEYS[2], 'scopes', 'amount')
redis.call('ZREM', KEYS[1], id)
return {'settled', actual}
`

/** KEYS: leases, reservation. ARGV[4]: id. */
export const releaseScript = `${prelude}
local id = ARGV[4]
local fields = loadReservation(KEYS[2])
local state = fields[1]
if not state then return {'unknown'} end
if state == 'settled' then return {'settled', fields[4]} end
if state == 'released' then return {'released'} end
if state == 'held' then dropHold(cjson.decode(fields[3]), fields[2]) end
finish(KEYS[2], 'released')
redis.call('HDEL', KEYS[2], 'scopes', 'amount')
redis.call('ZREM', KEYS[1], id)
return {'released'}
`

/** KEYS: leases, record marker, scope... ARGV[4..]: amount, scopesJson. */
export const recordScript = `${prelude}
local amount, scopes = ARGV[4], cjson.decode(ARGV[5])
local forgetAt = redis.call('GET', KEYS[2])
if forgetAt and tonumber(forgetAt) > now then return 0 end
for i = 1, #scopes do
  redis.call('HINCRBY', KEYS[2 + i], 'spent', amount)
  touch(KEYS[2 + i], scopes[i][2])
end
redis.call('SET', KEYS[2], now + retention, 'PX', retention)
return 1
`

/** KEYS: leases, scope... Returns spent, reserved per scope, flattened. */
export const readScript = `${prelude}
local balances = {}
for i = 2, #KEYS do
  local balance = redis.call('HMGET', KEYS[i], 'spent', 'reserved')
  balances[#balances + 1] = balance[1] or '0'
  balances[#balances + 1] = balance[2] or '0'
end
return balances
`
