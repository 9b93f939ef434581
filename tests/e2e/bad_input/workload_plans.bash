# Issue 27: --workload's compaction style and column families (sourced by bad_input.sh: expect,
# $kvz, $work, fail, $tried). Each mistake is one line naming the key, exit 2, before measuring.
plan_run=(run -q -d dbbench -b 4K -c lz4 --max-bytes 64K --time 0.01 --repetitions 1 --profile rocksdb)
prices="storage=0.1,cpu=0.05"
expect 2 "style='tiered': leveled or universal" "$kvz" "${plan_run[@]}" \
  --workload "write=1,read=1,$prices,size=1G,style=tiered"
expect 2 "size_ratio= is a universal compaction option" "$kvz" "${plan_run[@]}" \
  --workload "write=1,read=1,$prices,size=1G,size_ratio=2"
expect 2 "multiplier= is a leveled compaction option" "$kvz" "${plan_run[@]}" \
  --workload "write=1,read=1,$prices,size=1G,style=universal,multiplier=4"
expect 2 "min_merge_width='1': a whole number 2.." "$kvz" "${plan_run[@]}" \
  --workload "write=1,read=1,$prices,size=1G,style=universal,min_merge_width=1"
expect 2 "family='hot:write=1:read=1': write=, read= and size= are all needed" "$kvz" "${plan_run[@]}" \
  --workload "$prices,family=hot:write=1:read=1"
expect 2 "family='h t:write=1:read=1:size=1G': a name of letters, digits, _ or -" "$kvz" "${plan_run[@]}" \
  --workload "$prices,family=h t:write=1:read=1:size=1G"
expect 2 "the family a is named twice" "$kvz" "${plan_run[@]}" \
  --workload "$prices,family=a:write=1:read=1:size=1G,family=a:write=2:read=1:size=1G"
expect 2 "'ttl=5' is not write=, read= or size= given once" "$kvz" "${plan_run[@]}" \
  --workload "$prices,family=a:write=1:read=1:size=1G:ttl=5"
expect 2 "size= and family= together" "$kvz" "${plan_run[@]}" \
  --workload "$prices,size=1G,family=a:write=1:read=1:size=1G"
