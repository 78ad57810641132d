{PE[i,j]:0<=i<2 and 0<=j<2} garbage
{PE[i,j]->PE[i-1,j] ; PE[i,j]->PE[i,j-1]}
256 1024 64 16
