{PE[i,j]:0<=i<2 and 0<=j<2}
{PE[i,j]->PE[i-1,j] ; PE[i,j]->PE[i,j-1]}
256 1024 64 16 À¯
