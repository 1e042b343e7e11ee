# With scripts/lib/csv.awk: prints the line number of every row of a results CSV whose GB/s or
# median is not a number, or whose output was not checked.
{ if (field("gbs") !~ /^[0-9.]+$/ || field("ms_median") !~ /^[0-9.]+$/ || field("checked") != "yes") print FNR }
